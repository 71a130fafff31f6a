import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { createArqs, fpgaProfileCall, reportFpgaHosts } from '../fixtures/cyborg-v2-fleet';
import { ADMIN, FLOW_CLIENTS, FLOW_HOSTS as HOSTS, FLOW_PROFILE as PROFILE, measureNovaFlows, novaOf, ownProjectTokens } from '../fixtures/cyborg-v2-flow';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, onLedgerProcess } from '../http/ledger-server';
import { type ExpectedCall, measureHttpLatency } from '../measure/http-latency';

/** Requests present in the caller's project while reads and profile creates are measured. */
const PRESENT_ARQS = 100;
const TENANT = 'tenant-a';

const LATENCIES = ['v2_list_arqs', 'v2_get_arq', 'v2_create_profile'] as const;
const FLOWS = ['v2_flow_64', 'v2_flow_64_one_project'] as const;

/**
 * Cyborg's v2 API over real HTTP against a compiled ledger process on a
 * fresh data directory, in its embedded setup (so it runs on the `sqlite`
 * pass only). Latencies: sequential requests on one keep-alive connection.
 * Flows: 64 clients in a closed loop, each running Nova's create → bind →
 * delete by instance back to back, for its own project (v2_flow_64) or all
 * for one project (v2_flow_64_one_project). Every status is checked.
 */
export const cyborgV2Bench: BenchModule = {
  records: [
    ...LATENCIES.flatMap((name) => [
      { name: `${name}_p50_ms`, unit: 'ms', min: 0 },
      { name: `${name}_p99_ms`, unit: 'ms', min: 0 },
    ]),
    { name: 'v2_flow_64', unit: 'flows/s' },
    { name: 'v2_flow_64_cpu_ms', unit: 'ms', min: 0 },
    { name: 'v2_flow_64_one_project', unit: 'flows/s' },
  ],
  run: (context, wanted) => onLedgerProcess(context, 'v2_*', (ledger) => measureCyborgV2(context, wanted, ledger)),
};

async function measureCyborgV2(context: BenchContext, wanted: ReadonlySet<string>, ledger: LedgerServer): Promise<Measurement[]> {
  const admin = ledger.token(ADMIN);
  const nova = ledger.token(novaOf(TENANT));
  const setup = new JsonClient(ledger.url, 16);
  const providers = await reportFpgaHosts(ledger, setup, admin, HOSTS);
  await setup.expect(201, fpgaProfileCall(admin, PROFILE));
  const arqs = await createArqs(setup, nova, PROFILE, PRESENT_ARQS);
  setup.close();
  context.progress(`v2: ledger pid ${ledger.pid}, ${HOSTS} hosts reported, ${arqs.length} requests in ${TENANT}`);

  const calls: Record<(typeof LATENCIES)[number], (n: number) => ExpectedCall> = {
    v2_list_arqs: () => ({ status: 200, method: 'GET', path: '/v2/accelerator_requests', token: nova }),
    v2_get_arq: (n) => ({ status: 200, method: 'GET', path: `/v2/accelerator_requests/${arqs[n % arqs.length]}`, token: nova }),
    v2_create_profile: (n) => ({ status: 201, ...fpgaProfileCall(admin, `bench-dp-${n}`) }),
  };
  const results: Measurement[] = [];
  for (const name of LATENCIES) {
    if (!wanted.has(`${name}_p50_ms`) && !wanted.has(`${name}_p99_ms`)) continue;
    results.push(...(await ledger.profiled(name, () => measureHttpLatency(context, ledger, name, calls[name]))));
  }
  for (const name of FLOWS) {
    if (!wanted.has(name) && !(name === 'v2_flow_64' && wanted.has('v2_flow_64_cpu_ms'))) continue;
    const tokens = name === 'v2_flow_64' ? ownProjectTokens(ledger) : Array.from({ length: FLOW_CLIENTS }, () => nova);
    results.push(...(await ledger.profiled(name, () => measureNovaFlows(context, ledger, name, { tokens, profile: PROFILE, providers }))));
  }
  return results;
}
