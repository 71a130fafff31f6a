import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { gpuHostReport } from '../../support/fleet';
import { createComputeNode, type PlacementCall, placementClient } from '../../support/placement-client';
import { placementMissing, type PlacementService, startPlacementService } from '../../support/placement-service';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, startLedgerServer } from '../http/ledger-server';
import { percentile } from '../measure/statistics';

const RECORD = 'fence_8_reserved_ms';
/** Hosts fenced, one after another, each with its 8 GPUs bound: the record is their median. */
const ROUNDS = 5;
const POLL_MS = 5;
const PROFILE = 'gpu-fence-bench';

/**
 * Fencing a dead host against a real Placement (issue 24's target: "a host
 * with 8 bound devices releases all 8 and reserves the host in Placement
 * within 5 s"): a compiled ledger at the default settings with
 * LEDGER_PLACEMENT_URL on a fresh Placement (Debian's python3-placement).
 * Per round a new host with 8 single-GPU devices reports, Nova's
 * compute-node provider exists, and 8 requests are bound, one per GPU;
 * `fence_8_reserved_ms` runs from sending the fence to Placement offering
 * none of the host's providers (its allocation candidates for PGPU empty:
 * every provider reserved whole), polled every 5 ms. The releases are part
 * of the fence's answer; each round checks afterwards that all 8 are
 * released and every inventory reserved. On the sqlite pass only: the
 * reconciler's side does not depend on the store.
 */
export const fencePlacementBench: BenchModule = {
  records: [{ name: RECORD, unit: 'ms', min: 0 }],
  async run(context) {
    if (context.target.name !== 'sqlite') {
      context.progress(`${RECORD}: skipped; measured on the sqlite pass with a real Placement`);
      return [];
    }
    const missing = placementMissing();
    if (missing !== undefined) {
      context.progress(`${RECORD}: SKIPPED, ${missing}`);
      return [];
    }
    const placement = await startPlacementService();
    try {
      const ledger = await startLedgerServer(context.progress, { LEDGER_PLACEMENT_URL: placement.url });
      try {
        return [await measureFences(context, ledger, placement)];
      } finally {
        await ledger.stop();
      }
    } finally {
      await placement.dispose();
    }
  },
};

async function measureFences(context: BenchContext, ledger: LedgerServer, placement: PlacementService): Promise<Measurement> {
  const call = placementClient(placement.url);
  const client = new JsonClient(ledger.url, 1);
  const admin = ledger.token({ user: 'admin', project: 'admin', roles: ['admin'] });
  try {
    await client.expect(201, { method: 'POST', path: '/v2/device_profiles', token: admin, body: [{ name: PROFILE, groups: [{ 'resources:PGPU': '1' }] }] });
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const host = `fence-bench-${round}.example.org`;
      const computeNode = await createComputeNode(call, host);
      const providers = await boundHost(client, ledger, admin, call, host, computeNode);
      const started = performance.now();
      await client.expect(200, { method: 'POST', path: `/api/v1/hosts/${host}/fence`, token: admin, body: { reason: 'bench: host dead' } });
      while ((await candidates(call, computeNode)) > 0) await delay(POLL_MS);
      times.push(performance.now() - started);
      await checkFenced(client, admin, call, host, providers);
    }
    const median = percentile(times, 50);
    context.progress(`${RECORD} median ${median.toFixed(1)} ms over ${ROUNDS} hosts (${times.map((time) => time.toFixed(1)).join(', ')})`);
    return { name: RECORD, value: median, notes: `median of ${ROUNDS} hosts, each 8 GPUs bound; rounds ${times.map((time) => time.toFixed(0)).join(', ')} ms; default settings (LEDGER_PLACEMENT_RESYNC_SECONDS 5)` };
  } finally {
    client.close();
  }
}

/** The host reported with 8 GPUs, in Placement under its compute node, and one request bound to each: the providers' uuids. */
async function boundHost(client: JsonClient, ledger: LedgerServer, admin: string, call: PlacementCall, host: string, computeNode: string): Promise<string[]> {
  const agent = ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  await client.expect(200, { method: 'PUT', path: `/api/v1/hosts/${host}/report`, token: agent, body: gpuHostReport() });
  while ((await candidates(call, computeNode)) < 8) await delay(POLL_MS);
  const listed = await call('GET', `/allocation_candidates?resources=PGPU:1&in_tree=${computeNode}`);
  const providers = (listed.body.allocation_requests as { allocations: Record<string, unknown> }[]).map((request) => Object.keys(request.allocations)[0]);
  const tenant = ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
  const nova = { 'x-service-token': ledger.token({ user: 'nova', project: 'service', roles: ['service'] }) };
  for (const rp of providers) {
    const created = await client.expect(201, { method: 'POST', path: '/v2/accelerator_requests', token: tenant, headers: nova, body: { device_profile_name: PROFILE } });
    const arq = (JSON.parse(created.text) as { arqs: { uuid: string }[] }).arqs[0].uuid;
    const patch = [
      { op: 'add', path: '/hostname', value: host },
      { op: 'add', path: '/device_rp_uuid', value: rp },
      { op: 'add', path: '/instance_uuid', value: randomUUID() },
    ];
    await client.expect(202, { method: 'PATCH', path: '/v2/accelerator_requests', token: tenant, headers: nova, body: { [arq]: patch } });
    const shown = await client.expect(200, { method: 'GET', path: `/v2/accelerator_requests/${arq}`, token: tenant });
    if ((JSON.parse(shown.text) as { state: string }).state !== 'Bound') throw new Error(`request ${arq} on ${host} is not Bound after the bind: ${shown.text}`);
  }
  return providers;
}

const candidates = async (call: PlacementCall, computeNode: string): Promise<number> =>
  ((await call('GET', `/allocation_candidates?resources=PGPU:1&in_tree=${computeNode}`)).body.allocation_requests as unknown[]).length;

/** Every attach handle of the host free, and every provider's inventory reserved whole in Placement. */
async function checkFenced(client: JsonClient, admin: string, call: PlacementCall, host: string, providers: readonly string[]): Promise<void> {
  const deployables = await client.expect(200, { method: 'GET', path: `/api/v1/deployables?hostname=${host}`, token: admin, headers: { 'x-ledger-min-position': '0' } });
  for (const { uuid } of (JSON.parse(deployables.text) as { items: { uuid: string }[] }).items) {
    const deployable = JSON.parse((await client.expect(200, { method: 'GET', path: `/api/v1/deployables/${uuid}`, token: admin })).text) as { attachHandles: { claimedBy: string | null }[] };
    if (deployable.attachHandles.some((handle) => handle.claimedBy !== null)) throw new Error(`a handle of ${host} is still held after the fence`);
  }
  for (const rp of providers) {
    const { PGPU } = (await call('GET', `/resource_providers/${rp}/inventories`)).body.inventories as { PGPU: { total: number; reserved: number } };
    if (PGPU.reserved !== PGPU.total) throw new Error(`provider ${rp} of ${host} is not reserved whole: ${JSON.stringify(PGPU)}`);
  }
}
