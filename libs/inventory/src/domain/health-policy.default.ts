import { type HealthPolicy, parseHealthPolicy } from './health-policy';

/**
 * The policy the ledger judges by when LEDGER_HEALTH_POLICY_FILE is unset;
 * `config/health-policy.yaml` is the same policy as a file to copy and edit
 * (a spec keeps the two equal). Why each rule: docs/operations.md, "Health policy".
 */
export const DEFAULT_HEALTH_POLICY: HealthPolicy = parseHealthPolicy({
  version: '1',
  rules: [
    { match: { kind: 'xid', codes: [79, 95] }, effect: 'drain', recovery: 'operator' },
    { match: { kind: 'xid', codes: [64] }, effect: 'drain', recovery: 'operator' },
    { match: { kind: 'row-remap', detail: 'failed' }, effect: 'drain', recovery: 'operator' },
    { match: { kind: 'xid', codes: [119, 120] }, effect: 'reserve', recovery: { healthyChecks: 20 } },
    { match: { kind: 'xid', codes: [48, 63, 94] }, effect: 'reserve', recovery: { healthyChecks: 10 } },
    { match: { kind: 'row-remap', detail: 'pending' }, effect: 'reserve', recovery: { healthyChecks: 1 } },
    { match: { kind: 'ecc', detail: 'uncorrected' }, effect: 'reserve', recovery: { healthyChecks: 10 } },
    { match: { kind: 'xid', codes: [74, 92] }, effect: 'watch', recovery: { healthyChecks: 10 } },
    { match: { kind: 'aer', detail: 'fatal' }, effect: 'reserve', recovery: { healthyChecks: 3 } },
    { match: { kind: 'unresponsive' }, effect: 'reserve', recovery: { healthyChecks: 3 } },
    { match: { health: 'failed' }, effect: 'reserve', recovery: { healthyChecks: 1 } },
    { match: { health: 'degraded' }, effect: 'watch', recovery: { healthyChecks: 1 } },
  ],
});
