import { randomUUID } from 'node:crypto';
import { eventually } from '@ledger/processing/testing';
import type { TestLedger } from '../support/ledger-app';
import { type MigHosts, startMigHosts } from '../support/mig-hosts';
import { heldUnder, type PlacementCall, placementClient } from '../support/placement-client';
import { describeWithService, placementUnavailable, placementUrl } from '../support/services';

const describeReal = describeWithService('Placement', placementUnavailable());
const RC = 'CUSTOM_MIG_1G_10GB';

/**
 * Partitions carved on demand seen from the real Placement (docs/partitions.md,
 * "Placement: carved and room to carve"): a simulated agent's A100 in MIG
 * mode offered as a room provider of seven 1g.10gb slices; Nova's scheduler
 * finds it among the allocation candidates and claims it; the bind carves a
 * GPU instance, which Placement then holds as a provider of its own beside a
 * smaller room; the unbind's reclaim (idle:0) destroys it and the room is
 * whole again. The host is named per run, so the run's shared Placement
 * serves other suites meanwhile.
 */
describeReal('partitions kept in the real Placement: room, carve, reclaim', () => {
  const host = `mig-pl-${randomUUID().slice(0, 8)}`;
  let mig: MigHosts;
  let ledger: TestLedger;
  let placement: PlacementCall;
  let computeNode: string;
  const nova = () => ledger.token({ user: 'nova', project: 'tenant-mig-placement', roles: ['member', 'service'] });
  const patch = (arq: string, ops: unknown[]) => ledger.request('PATCH', '/v2/accelerator_requests', { token: nova(), body: { [arq]: ops } });

  /** The host's MIG providers in Placement: name suffix (`1g.10gb_carvable`, `1g.10gb_0`) → its inventory of the class. */
  async function migProviders(): Promise<Record<string, { uuid: string; total: number; reserved: number }>> {
    const providers: Record<string, { uuid: string; total: number; reserved: number }> = {};
    for (const [name, { uuid, inventories }] of Object.entries(await heldUnder(placement, computeNode))) {
      const inventory = inventories[RC];
      if (inventory) providers[name.slice(name.lastIndexOf('_', name.lastIndexOf('_') - 1) + 1)] = { uuid, total: inventory.total, reserved: inventory.reserved };
    }
    return providers;
  }

  beforeAll(async () => {
    placement = placementClient(placementUrl());
    mig = await startMigHosts(
      { LEDGER_PLACEMENT_URL: placementUrl(), LEDGER_PLACEMENT_RESYNC_SECONDS: '1', LEDGER_PLACEMENT_CREATE_COMPUTE_NODES: 'true', LEDGER_PARTITION_RECLAIM: 'idle:0' },
      { [host]: {} },
      'mig-1g-placement',
    );
    ledger = mig.ledger;
    await eventually(async () => (await placement('GET', `/resource_providers?name=${host}`)).body.resource_providers.length === 1);
    computeNode = (await placement('GET', `/resource_providers?name=${host}`)).body.resource_providers[0].uuid;
  });

  afterAll(async () => {
    await mig?.close();
  });

  it('offers the room, lets Nova claim it, holds the carved partition as its own provider, and takes it back at the reclaim', async () => {
    // An empty A100 in MIG mode: one room provider of seven 1g.10gb slices, no partition.
    let providers: Awaited<ReturnType<typeof migProviders>> = {};
    await eventually(async () => Object.keys((providers = await migProviders())).length > 0);
    expect(providers).toEqual({ '1g.10gb_carvable': { uuid: expect.any(String), total: 7, reserved: 0 } });
    const room = providers['1g.10gb_carvable'];

    // Nova's scheduler: the flavor's class as a numbered group, the room among the candidates, the claim.
    const candidates = await placement('GET', `/allocation_candidates?resources_acc0=${RC}:1&in_tree_acc0=${computeNode}&group_policy=none`);
    expect([candidates.status, candidates.body.errors?.[0]?.detail]).toEqual([200, undefined]);
    expect(candidates.body.allocation_requests).toEqual([expect.objectContaining({ allocations: { [room.uuid]: { resources: { [RC]: 1 } } } })]);
    const instance = randomUUID();
    const claim = await placement('PUT', `/allocations/${instance}`, { allocations: { [room.uuid]: { resources: { [RC]: 1 } } }, project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null });
    expect(claim.status).toBe(204);

    // The bind to the room carves a GPU instance; Placement then holds it as a provider of one, beside a room of six.
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova(), body: { device_profile_name: 'mig-1g-placement' } });
    const arq: string = created.body.arqs[0].uuid;
    const bound = await patch(arq, [
      { op: 'add', path: '/hostname', value: host },
      { op: 'add', path: '/device_rp_uuid', value: room.uuid },
      { op: 'add', path: '/instance_uuid', value: instance },
    ]);
    expect(bound.status).toBe(202);
    expect((await ledger.request('GET', `/v2/accelerator_requests/${arq}`, { token: nova() })).body.state).toBe('Bound');
    await eventually(async () => {
      const providers = await migProviders();
      return providers['1g.10gb_carvable']?.total === 6 && providers['1g.10gb_0']?.total === 1;
    });

    // The server goes: the request is unbound and Nova drops its claim; the reclaim destroys the partition, the room is whole.
    expect((await patch(arq, [{ op: 'remove', path: '/hostname' }, { op: 'remove', path: '/device_rp_uuid' }, { op: 'remove', path: '/instance_uuid' }])).status).toBe(202);
    expect((await placement('DELETE', `/allocations/${instance}`)).status).toBe(204);
    await eventually(async () => {
      const providers = await migProviders();
      return Object.keys(providers).length === 1 && providers['1g.10gb_carvable']?.total === 7;
    });
  });
});
