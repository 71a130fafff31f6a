import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { judgeHealth, parseHealthPolicy } from './health-policy';
import { DEFAULT_HEALTH_POLICY } from './health-policy.default';

describe('health policy', () => {
  it('ships as config/health-policy.yaml, the very default the ledger judges by', () => {
    const file = load(readFileSync(join(__dirname, '../../../../config/health-policy.yaml'), 'utf8'));
    expect(parseHealthPolicy(file)).toEqual(DEFAULT_HEALTH_POLICY);
  });

  it('judges by the first rule that matches, falling back on the level', () => {
    expect(judgeHealth(DEFAULT_HEALTH_POLICY, 'failed', { kind: 'xid', code: 79 })).toEqual({ effect: 'drain', recovery: 'operator', policyVersion: '1' });
    expect(judgeHealth(DEFAULT_HEALTH_POLICY, 'degraded', { kind: 'ecc', detail: 'uncorrected', count: 3 })).toEqual({ effect: 'reserve', recovery: { healthyChecks: 10 }, policyVersion: '1' });
    expect(judgeHealth(DEFAULT_HEALTH_POLICY, 'degraded', { kind: 'xid', code: 13 })).toEqual({ effect: 'watch', recovery: { healthyChecks: 1 }, policyVersion: '1' });
    expect(judgeHealth(DEFAULT_HEALTH_POLICY, 'failed', null)).toEqual({ effect: 'reserve', recovery: { healthyChecks: 1 }, policyVersion: '1' });
    expect(judgeHealth({ version: '2', rules: [] }, 'degraded', null)).toEqual({ effect: 'watch', recovery: { healthyChecks: 1 }, policyVersion: '2' });
  });

  it('takes a number as the version', () => {
    expect(parseHealthPolicy({ version: 3, rules: [] }).version).toBe('3');
  });

  it.each([
    ['no map', [], '(document) must be a map'],
    ['an unknown member', { version: '1', rules: [], default: {} }, '(document).default is not a member here'],
    ['no version', { rules: [] }, 'version must be a version'],
    ['rules not a list', { version: '1', rules: {} }, 'rules must be a list'],
    ['an unknown effect', { version: '1', rules: [{ match: {}, effect: 'panic', recovery: 'operator' }] }, 'rules[0].effect must be one of watch, reserve, drain'],
    ['an unknown kind', { version: '1', rules: [{ match: { kind: 'gremlins' }, effect: 'watch', recovery: 'operator' }] }, 'rules[0].match.kind must be one of'],
    ['codes without a kind', { version: '1', rules: [{ match: { codes: [79] }, effect: 'watch', recovery: 'operator' }] }, 'rules[0].match.kind is needed'],
    ['empty codes', { version: '1', rules: [{ match: { kind: 'xid', codes: [] }, effect: 'watch', recovery: 'operator' }] }, 'rules[0].match.codes must be a non-empty list'],
    ['a misspelt match member', { version: '1', rules: [{ match: { code: 79 }, effect: 'watch', recovery: 'operator' }] }, 'rules[0].match.code is not a member here'],
    ['zero healthy checks', { version: '1', rules: [{ match: {}, effect: 'watch', recovery: { healthyChecks: 0 } }] }, 'rules[0].recovery.healthyChecks must be an integer from 1'],
    ['a recovery neither', { version: '1', rules: [{ match: {}, effect: 'watch', recovery: 'never' }] }, 'rules[0].recovery must be operator or { healthyChecks: N }'],
  ])('refuses %s, naming the member', (_, document, message) => {
    expect(() => parseHealthPolicy(document)).toThrow(message);
  });
});
