import { randomUUID } from 'node:crypto';
import { eventually } from '@ledger/processing/testing';
import { gpuHostReport, hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { createComputeNode, heldUnder, placementClient } from '../support/placement-client';
import { type PlacementService, startPlacementService } from '../support/placement-service';
import { describeWithService, placementUnavailable, placementUrl } from '../support/services';

const describeReal = describeWithService('Placement', placementUnavailable());

const FPGA_PCI = '0000:5e:00.0';
const GPU_PCI = '0000:3b:00.0';
/** The report of `index`'s fleet host without the devices at these PCI addresses. */
const reportWithout = (index: number, ...pciAddresses: string[]) => ({
  devices: hostReportBody(index).devices.filter((device) => !pciAddresses.includes((device as { pciAddress: string }).pciAddress)),
});

/**
 * The ledger keeping a real Placement true to its log, end to end: host
 * reports, maintenance and allocations in, providers, inventories and
 * traits out, read back from Placement's own API; the sync each host is in,
 * as operators see it; and Nova's whole path (allocation candidates, claim,
 * bind). Every test has its own hosts, so the run's shared Placement serves
 * other suites meanwhile.
 */
describeReal('Placement kept true to the ledger (real Placement, whole ledger)', () => {
  let ledger: TestLedger;
  let call: ReturnType<typeof placementClient>;
  const nextIndex = (() => {
    let index = 100;
    return () => (index += 1);
  })();

  beforeAll(async () => {
    call = placementClient(placementUrl());
    ledger = await startTestLedger({ LEDGER_PLACEMENT_URL: placementUrl(), LEDGER_PLACEMENT_RESYNC_SECONDS: '1' });
  });
  afterAll(async () => {
    await ledger?.close();
  });

  const uniqueHost = () => `pl-${randomUUID().slice(0, 8)}.example.org`;
  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const report = async (host: string, body: unknown) => {
    const answer = await ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agentOf(host), body });
    expect(answer.status).toBe(200);
    return answer.body.position as number;
  };
  const novaComputeNode = (host: string) => createComputeNode(call, host);
  const hostPlacement = async (host: string) => (await ledger.request('GET', `/api/v1/hosts/${host}/placement`, { token: ledger.adminToken })).body;
  /** Waits until the host's sync is `state` for a desired state at `position` or later. */
  const syncReaches = async (host: string, state: string, position: number) => {
    await eventually(async () => {
      const { sync } = await hostPlacement(host);
      return sync?.state === state && sync.position >= position;
    });
    return hostPlacement(host);
  };
  const deviceAt = async (host: string, pciAddress: string) => {
    const devices = await ledger.request('GET', `/api/v1/devices?hostname=${host}`, { token: ledger.adminToken, headers: { 'x-ledger-min-position': '0' } });
    return (devices.body.items as { uuid: string; pciAddress: string }[]).find((device) => device.pciAddress === pciAddress)!.uuid;
  };

  it('puts discovered devices into Placement under Nova\'s compute node: one provider per deployable, with inventories and traits', async () => {
    const host = uniqueHost();
    const position = await report(host, hostReportBody(nextIndex()));
    // Waiting keeps the position Placement last took in full: none yet.
    const waiting = await syncReaches(host, 'waiting-for-compute-node', 0);
    expect(waiting.sync.detail).toContain(`Placement has no provider named ${host}`);

    const computeNode = await novaComputeNode(host);
    const desired = await syncReaches(host, 'in-sync', position);
    const held = await heldUnder(call, computeNode);
    expect(Object.keys(held).sort()).toEqual(desired.providers.map((provider: { name: string }) => provider.name).sort());
    for (const provider of desired.providers) {
      expect(held[provider.name].uuid).toBe(provider.uuid);
      expect(held[provider.name].traits).toEqual(provider.traits);
      expect(held[provider.name].inventories).toEqual({
        [provider.resourceClass]: { total: provider.total, reserved: 0, min_unit: 1, max_unit: provider.total, step_size: 1, allocation_ratio: 1 },
      });
    }
    expect(held[`${host}_${FPGA_PCI}`]).toMatchObject({ inventories: { FPGA: { total: 2 } }, traits: ['CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', 'OWNER_CYBORG'] });
    expect(held[`${host}_${GPU_PCI}`]).toMatchObject({ inventories: { PGPU: { total: 1 } }, traits: ['CUSTOM_NVIDIA_20B5', 'OWNER_CYBORG'] });
  });

  it('reserves a disabled device whole, and takes it back when enabled', async () => {
    const host = uniqueHost();
    const computeNode = await novaComputeNode(host);
    await syncReaches(host, 'in-sync', await report(host, hostReportBody(nextIndex())));
    const fpga = await deviceAt(host, FPGA_PCI);

    const disabled = await ledger.request('POST', `/api/v1/devices/${fpga}/disable`, { token: ledger.adminToken, body: { reason: 'firmware update' } });
    expect(disabled.status).toBe(200);
    await syncReaches(host, 'in-sync', disabled.body.position);
    expect((await heldUnder(call, computeNode))[`${host}_${FPGA_PCI}`].inventories.FPGA).toMatchObject({ total: 2, reserved: 2 });

    const enabled = await ledger.request('POST', `/api/v1/devices/${fpga}/enable`, { token: ledger.adminToken });
    await syncReaches(host, 'in-sync', enabled.body.position);
    expect((await heldUnder(call, computeNode))[`${host}_${FPGA_PCI}`].inventories.FPGA).toMatchObject({ total: 2, reserved: 0 });
  });

  it('removes the provider of a device that left the report', async () => {
    const host = uniqueHost();
    const index = nextIndex();
    const computeNode = await novaComputeNode(host);
    await syncReaches(host, 'in-sync', await report(host, hostReportBody(index)));
    expect(Object.keys(await heldUnder(call, computeNode))).toContain(`${host}_${GPU_PCI}`);

    await syncReaches(host, 'in-sync', await report(host, reportWithout(index, GPU_PCI)));
    const held = await heldUnder(call, computeNode);
    expect(Object.keys(held)).not.toContain(`${host}_${GPU_PCI}`);
    expect(Object.keys(held)).toContain(`${host}_${FPGA_PCI}`);
  });

  it('puts back a provider deleted by hand at the next periodic compare, and says it repaired drift', async () => {
    const host = uniqueHost();
    const computeNode = await novaComputeNode(host);
    await syncReaches(host, 'in-sync', await report(host, hostReportBody(nextIndex())));
    const name = `${host}_${GPU_PCI}`;
    const { uuid } = (await heldUnder(call, computeNode))[name];

    expect((await call('DELETE', `/resource_providers/${uuid}`)).status).toBe(204);
    await eventually(async () => (await hostPlacement(host)).sync.lastRepair !== undefined);

    const { sync } = await hostPlacement(host);
    expect(sync).toMatchObject({ state: 'in-sync', lastRepair: { at: expect.any(String), what: expect.arrayContaining([`provider ${name} is missing`]) } });
    expect((await heldUnder(call, computeNode))[name]).toMatchObject({ uuid, inventories: { PGPU: { total: 1, reserved: 0 } } });
  });

  it('keeps a provider that holds an allocation, reserved, until the allocation goes, and says so', async () => {
    const host = uniqueHost();
    const index = nextIndex();
    const computeNode = await novaComputeNode(host);
    await syncReaches(host, 'in-sync', await report(host, hostReportBody(index)));
    const name = `${host}_${GPU_PCI}`;
    const { uuid } = (await heldUnder(call, computeNode))[name];
    const consumer = randomUUID();
    const claim = { allocations: { [uuid]: { resources: { PGPU: 1 } } }, project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null };
    expect((await call('PUT', `/allocations/${consumer}`, claim)).status).toBe(204);

    const blocked = await syncReaches(host, 'blocked-by-allocations', await report(host, reportWithout(index, GPU_PCI)));
    expect(blocked.sync.blocked).toEqual([{ uuid, name, usages: { PGPU: 1 } }]);
    expect(blocked.sync.detail).toContain(`${name}: reserved and kept until their allocations go`);
    expect((await heldUnder(call, computeNode))[name].inventories.PGPU).toMatchObject({ total: 1, reserved: 1 });
    const fleet = await ledger.request('GET', '/api/v1/placement', { token: ledger.adminToken });
    expect(fleet.status).toBe(200);
    expect(fleet.body.items).toContainEqual(expect.objectContaining({ hostname: host, state: 'blocked-by-allocations' }));
    expect(fleet.body.counts['blocked-by-allocations']).toBeGreaterThanOrEqual(1);

    expect((await call('DELETE', `/allocations/${consumer}`)).status).toBe(204);
    await eventually(async () => (await hostPlacement(host)).sync.state === 'in-sync');
    expect(Object.keys(await heldUnder(call, computeNode))).not.toContain(name);
  });

  it("serves Nova's whole path: allocation candidates from the device profile, the claim, and a bind on that provider", async () => {
    const host = uniqueHost();
    const computeNode = await novaComputeNode(host);
    await syncReaches(host, 'in-sync', await report(host, hostReportBody(nextIndex())));
    const profileName = `fpga-intel-${randomUUID().slice(0, 8)}`;
    const profile = await ledger.request('POST', '/v2/device_profiles', {
      token: ledger.adminToken,
      body: [{ name: profileName, groups: [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }] }],
    });
    expect(profile.status).toBe(201);

    // Nova turns the profile's group into a request group: resources:RC=N → resources=RC:N, trait:T=required → required=T.
    const group = (await ledger.request('GET', `/v2/device_profiles/${profileName}`, { token: ledger.adminToken, headers: { 'openstack-api-version': 'accelerator 2.2' } })).body
      .device_profile.groups[0] as Record<string, string>;
    const resources = Object.entries(group).filter(([key]) => key.startsWith('resources:')).map(([key, count]) => `${key.slice('resources:'.length)}:${count}`);
    const required = Object.entries(group).filter(([key, value]) => key.startsWith('trait:') && value === 'required').map(([key]) => key.slice('trait:'.length));
    expect([resources, required]).toEqual([['FPGA:1'], ['CUSTOM_FPGA_INTEL']]);
    // in_tree keeps the shared Placement's other hosts out, as a host Nova was told to use would.
    const candidates = await call('GET', `/allocation_candidates?resources=${resources.join(',')}&required=${required.join(',')}&in_tree=${computeNode}`);
    expect(candidates.status).toBe(200);
    const fpgaRp = (await hostPlacement(host)).providers.find((provider: { resourceClass: string }) => provider.resourceClass === 'FPGA').uuid as string;
    const request = (candidates.body.allocation_requests as { allocations: Record<string, { resources: Record<string, number> }> }[]).find(
      (candidate) => candidate.allocations[fpgaRp] !== undefined,
    );
    expect(request?.allocations).toEqual({ [fpgaRp]: { resources: { FPGA: 1 } } });

    const instance = randomUUID();
    const claim = await call('PUT', `/allocations/${instance}`, { allocations: request!.allocations, project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null });
    expect(claim.status).toBe(204);
    expect((await call('GET', `/resource_providers/${fpgaRp}/usages`)).body.usages).toEqual({ FPGA: 1 });

    const tenant = ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
    const asNova = { 'x-service-token': ledger.token({ user: 'nova', project: 'service', roles: ['service'] }) };
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: tenant, headers: asNova, body: { device_profile_name: profileName } });
    expect(created.status).toBe(201);
    const arq = created.body.arqs[0].uuid as string;
    const bind = await ledger.request('PATCH', '/v2/accelerator_requests', {
      token: tenant,
      headers: asNova,
      body: {
        [arq]: [
          { op: 'add', path: '/hostname', value: host },
          { op: 'add', path: '/device_rp_uuid', value: fpgaRp },
          { op: 'add', path: '/instance_uuid', value: instance },
        ],
      },
    });
    expect(bind.status).toBe(202);
    await eventually(async () => (await ledger.request('GET', `/v2/accelerator_requests/${arq}`, { token: tenant })).body.state !== 'Binding');
    const bound = (await ledger.request('GET', `/v2/accelerator_requests/${arq}`, { token: tenant })).body;
    const deployable = (await ledger.request('GET', `/api/v1/deployables?hostname=${host}&resourceClass=FPGA`, { token: ledger.adminToken })).body.items[0];
    expect(deployable.rpUuid).toBe(fpgaRp);
    expect(bound).toMatchObject({ state: 'Bound', hostname: host, device_rp_uuid: fpgaRp, instance_uuid: instance, attach_handle_type: 'PCI' });
    let claimed: { address: string } | undefined;
    await eventually(async () => {
      const handles = (await ledger.request('GET', `/api/v1/deployables/${deployable.uuid}`, { token: ledger.adminToken })).body.attachHandles as { address: string; claimedBy: string | null }[];
      claimed = handles.find((handle) => handle.claimedBy === arq);
      return claimed !== undefined;
    });
    const { domain, bus, device, function: fn } = bound.attach_handle_info;
    expect(`${domain}:${bus}:${device}.${fn}`).toBe(claimed!.address);
  });

  it('fences a host with 8 bound GPUs: all 8 holds released, and every provider of the host reserved in Placement', async () => {
    const host = uniqueHost();
    const computeNode = await novaComputeNode(host);
    await syncReaches(host, 'in-sync', await report(host, gpuHostReport()));
    const profileName = `gpu-fence-${randomUUID().slice(0, 8)}`;
    expect((await ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name: profileName, groups: [{ 'resources:PGPU': '1' }] }] })).status).toBe(201);
    const tenant = ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
    const asNova = { 'x-service-token': ledger.token({ user: 'nova', project: 'service', roles: ['service'] }) };
    const gpuProviders = (await hostPlacement(host)).providers as { uuid: string }[];
    expect(gpuProviders).toHaveLength(8);
    const arqs: string[] = [];
    for (const provider of gpuProviders) {
      const created = await ledger.request('POST', '/v2/accelerator_requests', { token: tenant, headers: asNova, body: { device_profile_name: profileName } });
      const arq = created.body.arqs[0].uuid as string;
      const patch = [
        { op: 'add', path: '/hostname', value: host },
        { op: 'add', path: '/device_rp_uuid', value: provider.uuid },
        { op: 'add', path: '/instance_uuid', value: randomUUID() },
      ];
      expect((await ledger.request('PATCH', '/v2/accelerator_requests', { token: tenant, headers: asNova, body: { [arq]: patch } })).status).toBe(202);
      arqs.push(arq);
    }
    const claimed = async () => {
      const deployables = (await ledger.request('GET', `/api/v1/deployables?hostname=${host}`, { token: ledger.adminToken, headers: { 'x-ledger-min-position': '0' } })).body.items as { uuid: string }[];
      const handles = await Promise.all(deployables.map(async (deployable) => (await ledger.request('GET', `/api/v1/deployables/${deployable.uuid}`, { token: ledger.adminToken })).body.attachHandles));
      return handles.flat().filter((handle: { claimedBy: string | null }) => handle.claimedBy !== null).length;
    };
    await eventually(async () => (await claimed()) === 8);

    const fenced = await ledger.request('POST', `/api/v1/hosts/${host}/fence`, { token: ledger.adminToken, body: { reason: 'host dead' } });
    expect(fenced.status).toBe(200);
    // The condition the target names: nothing held, and Placement offers none of the host's providers (each reserved whole).
    await eventually(async () => {
      const held = Object.values(await heldUnder(call, computeNode));
      return held.length === 8 && held.every((provider) => provider.inventories.PGPU.reserved === provider.inventories.PGPU.total);
    });
    expect(await claimed()).toBe(0);
    const candidates = await call('GET', `/allocation_candidates?resources=PGPU:1&in_tree=${computeNode}`);
    expect(candidates.body.allocation_requests).toEqual([]);
    // Nova is not told: the requests stay Bound until Nova evacuates or deletes their instances.
    const states = await Promise.all(arqs.map(async (arq) => (await ledger.request('GET', `/v2/accelerator_requests/${arq}`, { token: tenant })).body.state));
    expect(new Set(states)).toEqual(new Set(['Bound']));
  });

  it('shows the sync in /readyz and the reactor among the reactors, and refuses a bad page size with 400', async () => {
    const ready = await ledger.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.placement.ok).toBe(true);
    const reactors = (await ledger.request('GET', '/api/v1/reactors', { token: ledger.adminToken })).body.items as { name: string }[];
    expect(reactors.map((reactor) => reactor.name)).toContain('placement-reconciler');
    const bad = await ledger.request('GET', '/api/v1/placement?limit=0', { token: ledger.adminToken });
    expect([bad.status, bad.headers.get('x-error-code')]).toEqual([400, 'REQUEST.INVALID']);
    const fleet = await ledger.request('GET', '/api/v1/placement?limit=1', { token: ledger.adminToken });
    expect(fleet.body.reconciler).toMatchObject({ enabled: true, running: true, holdsLease: true, lastCompareAt: expect.any(String) });
  });
});

/**
 * Placement down loses nothing and delays no command: a ledger on its own
 * Placement (stopping the run's shared one would fail other suites), which
 * the test stops and starts again.
 */
describeReal('Placement down, then back (its own Placement)', () => {
  let placement: PlacementService;
  let ledger: TestLedger;
  let call: ReturnType<typeof placementClient>;

  beforeAll(async () => {
    placement = await startPlacementService();
    call = placementClient(placement.url);
    ledger = await startTestLedger({
      LEDGER_PLACEMENT_URL: placement.url,
      LEDGER_PLACEMENT_RESYNC_SECONDS: '1',
      LEDGER_PLACEMENT_CREATE_COMPUTE_NODES: 'true',
      LEDGER_PLACEMENT_TIMEOUT_MS: '2000',
    });
  });
  afterAll(async () => {
    await ledger?.close();
    await placement?.dispose();
  });

  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const hostPlacement = async (host: string) => (await ledger.request('GET', `/api/v1/hosts/${host}/placement`, { token: ledger.adminToken })).body;

  it('answers commands while Placement is down, says since when it is unreachable, and converges the backlog once it is back', async () => {
    const [a, b] = ['down-a.example.org', 'down-b.example.org'];
    const first = await ledger.request('PUT', `/api/v1/hosts/${a}/report`, { token: agentOf(a), body: hostReportBody(1) });
    await eventually(async () => (await hostPlacement(a)).sync?.state === 'in-sync' && (await hostPlacement(a)).sync.position >= first.body.position);
    const profile = await ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name: 'fpga-down', groups: [{ 'resources:FPGA': '1' }] }] });
    expect(profile.status).toBe(201);
    const devices = await ledger.request('GET', `/api/v1/devices?hostname=${a}`, { token: ledger.adminToken });
    const fpga = (devices.body.items as { uuid: string; pciAddress: string }[]).find((device) => device.pciAddress === FPGA_PCI)!.uuid;

    await placement.stop();
    // Every command answers while Placement is still down: none waits for it.
    const reportB = await ledger.request('PUT', `/api/v1/hosts/${b}/report`, { token: agentOf(b), body: hostReportBody(2) });
    const disabled = await ledger.request('POST', `/api/v1/devices/${fpga}/disable`, { token: ledger.adminToken, body: { reason: 'maintenance' } });
    const arq = await ledger.request('POST', '/v2/accelerator_requests', { token: ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] }), body: { device_profile_name: 'fpga-down' } });
    expect([reportB.status, disabled.status, arq.status]).toEqual([200, 200, 201]);

    await eventually(async () => (await hostPlacement(b)).sync?.state === 'placement-unavailable' && (await hostPlacement(a)).sync?.state === 'placement-unavailable');
    const down = await hostPlacement(a);
    expect(down.sync).toMatchObject({ state: 'placement-unavailable', since: expect.any(String), detail: expect.stringContaining('Placement is unavailable') });
    const fleet = (await ledger.request('GET', '/api/v1/placement', { token: ledger.adminToken })).body;
    expect(fleet.counts['placement-unavailable']).toBe(2);
    expect(fleet.reconciler.placementUnavailableSince).toEqual(expect.any(String));
    const ready = await ledger.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.placement.detail).toContain(`Placement unavailable since ${fleet.reconciler.placementUnavailableSince}`);
    await eventually(async () => {
      const reactors = (await ledger.request('GET', '/api/v1/reactors', { token: ledger.adminToken })).body.items as { name: string; state: string; parked: number }[];
      return reactors.some((reactor) => reactor.name === 'placement-reconciler' && reactor.state === 'unavailable' && reactor.parked === 0);
    });

    await placement.start();
    await eventually(async () => {
      const [syncA, syncB] = [(await hostPlacement(a)).sync, (await hostPlacement(b)).sync];
      return syncA?.state === 'in-sync' && syncA.position >= disabled.body.position && syncB?.state === 'in-sync' && syncB.position >= reportB.body.position;
    });
    const computeNodes = (await call('GET', '/resource_providers?name=' + b)).body.resource_providers as { uuid: string }[];
    expect(Object.keys(await heldUnder(call, computeNodes[0].uuid))).toContain(`${b}_${FPGA_PCI}`);
    const computeNodeA = ((await call('GET', '/resource_providers?name=' + a)).body.resource_providers as { uuid: string }[])[0].uuid;
    expect((await heldUnder(call, computeNodeA))[`${a}_${FPGA_PCI}`].inventories.FPGA).toMatchObject({ total: 2, reserved: 2 });
    await eventually(async () => !(await ledger.request('GET', '/readyz')).body.checks.placement.detail);
  });
});
