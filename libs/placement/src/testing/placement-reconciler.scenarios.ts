import { randomUUID } from 'node:crypto';
import { NAMESPACE_DNS, uuidV3 } from '@ledger/kernel';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { capturingLogger, eventually } from '@ledger/processing/testing';
import { OWNER_TRAIT } from '../domain/desired-placement';
import type { PlacementApi } from '../application/placement-api.port';
import { PlacementReconciler, type PlacementReconcilerOptions } from '../application/placement-reconciler';
import { desiredDevice, desiredHost, type DeviceSpec } from './desired-placement-fixtures';
import { InMemoryDesiredPlacementSource } from './in-memory-desired-placement-source';
import type { PlacementAllocations } from './placement-allocations';

export interface ReconcilerScenarioSubject {
  readonly api: PlacementApi & { readonly callCount: number };
  readonly allocations: PlacementAllocations;
}

/** A custom name no other test (or run against a shared Placement) uses. */
export const uniqueTrait = (prefix = 'T'): string => `CUSTOM_${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
const uniqueHost = (): string => `host-${randomUUID().slice(0, 8)}.example.org`;

/**
 * The reconciler's behaviour, run on the in-memory fake (fast) and on the
 * real Placement. Every test makes its own hosts and names, so a shared
 * Placement holding other suites' providers does not disturb it.
 */
export function describeReconcilerScenarios(name: string, open: () => ReconcilerScenarioSubject, describeFn: jest.Describe = describe): void {
  describeFn(`PlacementReconciler: ${name}`, () => {
    let api: ReconcilerScenarioSubject['api'];
    let allocations: PlacementAllocations;
    let source: InMemoryDesiredPlacementSource;
    let db: SqlDatabase;
    let reconciler: PlacementReconciler;
    let instances: PlacementReconciler[];

    const reconcilerWith = (overrides: Partial<PlacementReconcilerOptions> = {}): PlacementReconciler => {
      const instance = new PlacementReconciler({ api, source, db, concurrency: 4, resyncMs: 1000, createComputeNodes: false, instanceId: 'test', leaseMs: 15_000, logger: capturingLogger(), ...overrides });
      instances.push(instance);
      return instance;
    };

    beforeEach(async () => {
      ({ api, allocations } = open());
      source = new InMemoryDesiredPlacementSource();
      db = await openSqliteSqlDatabase({ file: ':memory:' });
      instances = [];
      reconciler = reconcilerWith();
    });

    afterEach(async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
      await db.close();
    });

    /** What Nova does when nova-compute starts: the compute-node provider, named after the host. */
    async function novaComputeNode(hostname: string): Promise<string> {
      return (await api.createProvider({ uuid: randomUUID(), name: hostname })).uuid;
    }

    async function ledgerProviders(computeNode: string): Promise<{ name: string; uuid: string; inventories: unknown; traits: string[] }[]> {
      const providers = await api.listProviders({ inTree: computeNode, required: [OWNER_TRAIT] });
      return Promise.all(
        providers
          .sort((a, b) => a.name.localeCompare(b.name))
          .map(async (provider) => ({ name: provider.name, uuid: provider.uuid, inventories: (await api.getInventories(provider.uuid)).value, traits: (await api.getTraits(provider.uuid)).value })),
      );
    }

    it('gives a new host one provider per device under its compute node, named, identified and described as Cyborg does', async () => {
      const host = uniqueHost();
      const computeNode = await novaComputeNode(host);
      const trait = uniqueTrait('FPGA');
      source.set(desiredHost(host, 3, [{ pciAddress: '0000:5e:00.0', total: 2, traits: [trait] }, { pciAddress: '0000:81:00.0', resourceClass: 'PGPU', traits: [] }]));

      const [status] = await reconciler.reconcileHosts([host]);

      expect(status).toMatchObject({ hostname: host, state: 'in-sync', position: 3 });
      expect(await ledgerProviders(computeNode)).toEqual([
        {
          name: `${host}_0000:5e:00.0`,
          uuid: uuidV3(NAMESPACE_DNS, `${host}_0000:5e:00.0`),
          inventories: { FPGA: { total: 2, reserved: 0, minUnit: 1, maxUnit: 2, stepSize: 1, allocationRatio: 1 } },
          traits: [trait, OWNER_TRAIT].sort(),
        },
        {
          name: `${host}_0000:81:00.0`,
          uuid: uuidV3(NAMESPACE_DNS, `${host}_0000:81:00.0`),
          inventories: { PGPU: { total: 1, reserved: 0, minUnit: 1, maxUnit: 1, stepSize: 1, allocationRatio: 1 } },
          traits: [OWNER_TRAIT],
        },
      ]);
      expect((await api.getProvider(uuidV3(NAMESPACE_DNS, `${host}_0000:81:00.0`)))?.parentUuid).toBe(computeNode);
      expect(await reconciler.hostStatus(host)).toEqual(status);
    });

    it('brings a new host of eight devices into Placement with at most four calls per device', async () => {
      const host = uniqueHost();
      await novaComputeNode(host);
      source.set(desiredHost(host, 1, Array.from({ length: 8 }, (_, index): DeviceSpec => ({ pciAddress: `0000:${(0x10 + index).toString(16)}:00.0`, traits: [] }))));
      const before = api.callCount;
      await reconciler.reconcileHosts([host]);
      expect((api.callCount - before) / 8).toBeLessThanOrEqual(4);
    });

    it('reserves the whole inventory of a disabled device, and frees it when enabled again', async () => {
      const host = uniqueHost();
      await novaComputeNode(host);
      const device: DeviceSpec = { pciAddress: '0000:5e:00.0', total: 4, traits: [] };
      source.set(desiredHost(host, 1, [device]));
      await reconciler.reconcileHosts([host]);
      const uuid = desiredDevice(host, device).uuid;

      source.set(desiredHost(host, 2, [{ ...device, disabled: true }]));
      await reconciler.reconcileHosts([host]);
      expect((await api.getInventories(uuid)).value.FPGA).toMatchObject({ total: 4, reserved: 4 });

      source.set(desiredHost(host, 3, [device]));
      await reconciler.reconcileHosts([host]);
      expect((await api.getInventories(uuid)).value.FPGA).toMatchObject({ total: 4, reserved: 0 });
    });

    it('deletes the provider of a device that went away', async () => {
      const host = uniqueHost();
      const computeNode = await novaComputeNode(host);
      source.set(desiredHost(host, 1, [{ pciAddress: '0000:5e:00.0', traits: [] }, { pciAddress: '0000:5f:00.0', traits: [] }]));
      await reconciler.reconcileHosts([host]);

      source.set(desiredHost(host, 2, [{ pciAddress: '0000:5e:00.0', traits: [] }]));
      const [status] = await reconciler.reconcileHosts([host]);

      expect(status.state).toBe('in-sync');
      expect((await ledgerProviders(computeNode)).map((provider) => provider.name)).toEqual([`${host}_0000:5e:00.0`]);
    });

    it('re-creates a provider deleted by hand at the next full compare, and reports the repaired drift', async () => {
      const host = uniqueHost();
      const computeNode = await novaComputeNode(host);
      const device: DeviceSpec = { pciAddress: '0000:5e:00.0', traits: [] };
      source.set(desiredHost(host, 1, [device]));
      await reconciler.reconcileAll();

      await api.deleteProvider(desiredDevice(host, device).uuid);
      await reconciler.reconcileAll();

      expect((await ledgerProviders(computeNode)).map((provider) => provider.name)).toEqual([`${host}_0000:5e:00.0`]);
      const status = await reconciler.hostStatus(host);
      expect(status).toMatchObject({ state: 'in-sync', lastRepair: { what: [`provider ${host}_0000:5e:00.0 is missing`, expect.any(String), expect.any(String)] } });
    });

    it('puts back a trait changed by hand at the next full compare', async () => {
      const host = uniqueHost();
      await novaComputeNode(host);
      const trait = uniqueTrait();
      const device: DeviceSpec = { pciAddress: '0000:5e:00.0', traits: [trait] };
      source.set(desiredHost(host, 1, [device]));
      await reconciler.reconcileAll();
      const uuid = desiredDevice(host, device).uuid;

      const { generation } = await api.getTraits(uuid);
      await api.setTraits(uuid, generation, [OWNER_TRAIT, 'COMPUTE_DEVICE_TAGGING']);
      await reconciler.reconcileAll();

      expect((await api.getTraits(uuid)).value).toEqual([trait, OWNER_TRAIT].sort());
      expect((await reconciler.hostStatus(host))?.lastRepair?.what).toEqual([`traits of ${host}_0000:5e:00.0 differ: +${trait} -COMPUTE_DEVICE_TAGGING`]);
    });

    it('takes back a provider stripped of the owner trait by hand', async () => {
      const host = uniqueHost();
      await novaComputeNode(host);
      const device: DeviceSpec = { pciAddress: '0000:5e:00.0', traits: [] };
      source.set(desiredHost(host, 1, [device]));
      await reconciler.reconcileAll();
      const uuid = desiredDevice(host, device).uuid;

      await api.setTraits(uuid, (await api.getTraits(uuid)).generation, []);
      await reconciler.reconcileAll();

      expect((await api.getTraits(uuid)).value).toEqual([OWNER_TRAIT]);
      expect(await reconciler.hostStatus(host)).toMatchObject({ state: 'in-sync' });
    });

    it('costs one listing call when nothing changed', async () => {
      const host = uniqueHost();
      await novaComputeNode(host);
      source.set(desiredHost(host, 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));
      await reconciler.reconcileAll();
      const before = api.callCount;
      const summary = await reconciler.reconcileAll();
      expect(api.callCount - before).toBe(1);
      expect(summary).toMatchObject({ hosts: 1, changed: 0, byState: { 'in-sync': 1 } });
    });

    it('keeps a removed device\'s provider while it holds an allocation (reserved, blocked), and deletes it once freed', async () => {
      const host = uniqueHost();
      const computeNode = await novaComputeNode(host);
      const device: DeviceSpec = { pciAddress: '0000:5e:00.0', total: 2, traits: [] };
      source.set(desiredHost(host, 1, [device]));
      await reconciler.reconcileAll();
      const uuid = desiredDevice(host, device).uuid;
      const instance = randomUUID();
      await allocations.allocate(instance, { [uuid]: { FPGA: 1 } });

      source.set(desiredHost(host, 2, []));
      await reconciler.reconcileAll();
      expect(await reconciler.hostStatus(host)).toMatchObject({
        state: 'blocked-by-allocations',
        position: 2,
        blocked: [{ uuid, name: `${host}_0000:5e:00.0`, usages: { FPGA: 1 } }],
      });
      expect((await api.getInventories(uuid)).value.FPGA).toMatchObject({ total: 2, reserved: 2 });

      await reconciler.reconcileAll();
      expect(await api.getProvider(uuid)).toBeDefined();

      await allocations.deallocate(instance);
      await reconciler.reconcileAll();
      expect(await api.getProvider(uuid)).toBeUndefined();
      expect(await ledgerProviders(computeNode)).toEqual([]);
      const status = await reconciler.hostStatus(host);
      expect(status).toMatchObject({ state: 'in-sync', position: 2 });
      expect(status?.lastRepair).toBeUndefined();
    });

    it('waits, saying so, while the compute node does not exist, and goes on once Nova creates it', async () => {
      const host = uniqueHost();
      source.set(desiredHost(host, 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));
      await reconciler.reconcileAll();
      expect(await reconciler.hostStatus(host)).toMatchObject({ state: 'waiting-for-compute-node', detail: expect.stringContaining(`no provider named ${host}`) });

      const computeNode = await novaComputeNode(host);
      await reconciler.reconcileAll();
      expect(await reconciler.hostStatus(host)).toMatchObject({ state: 'in-sync', position: 1 });
      expect(await ledgerProviders(computeNode)).toHaveLength(1);
    });

    it('creates the compute node itself, as uuid3(NAMESPACE_DNS, hostname), when told to', async () => {
      reconciler = reconcilerWith({ createComputeNodes: true });
      const host = uniqueHost();
      source.set(desiredHost(host, 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));
      await reconciler.reconcileAll();
      const [computeNode] = await api.listProviders({ name: host });
      expect(computeNode.uuid).toBe(uuidV3(NAMESPACE_DNS, host));
      expect(await ledgerProviders(computeNode.uuid)).toHaveLength(1);
    });

    it('deletes the custom traits and resource classes it created once nothing needs them, never one another service made', async () => {
      const host = uniqueHost();
      await novaComputeNode(host);
      const ours = uniqueTrait('OURS');
      const theirs = uniqueTrait('THEIRS');
      const resourceClass = uniqueTrait('RC');
      await api.ensureTrait(theirs);
      source.set(desiredHost(host, 1, [{ pciAddress: '0000:5e:00.0', resourceClass, traits: [ours, theirs] }]));
      await reconciler.reconcileAll();

      source.set(desiredHost(host, 2, []));
      const summary = await reconciler.reconcileAll();

      expect([...summary.removedNames].sort()).toEqual([ours, resourceClass].sort());
      expect(await api.ensureTrait(ours)).toBe(true);
      expect(await api.ensureTrait(theirs)).toBe(false);
      expect(await api.ensureResourceClass(resourceClass)).toBe(true);
      await api.deleteTrait(ours);
      await api.deleteTrait(theirs);
      await api.deleteResourceClass(resourceClass);
    });

    it('once started, compares periodically under its lease: a provider deleted by hand comes back unasked', async () => {
      const host = uniqueHost();
      await novaComputeNode(host);
      const device: DeviceSpec = { pciAddress: '0000:5e:00.0', traits: [] };
      source.set(desiredHost(host, 1, [device]));
      reconciler = reconcilerWith({ resyncMs: 50 });
      const standby = reconcilerWith({ resyncMs: 50, instanceId: 'standby' });
      reconciler.start();
      const uuid = desiredDevice(host, device).uuid;
      await eventually(async () => (await reconciler.hostStatus(host))?.state === 'in-sync');
      standby.start();

      await api.deleteProvider(uuid);
      await eventually(async () => (await reconciler.hostStatus(host))?.lastRepair !== undefined);

      expect(await api.getProvider(uuid)).toBeDefined();
      expect((await reconciler.hostStatus(host))?.lastRepair?.what[0]).toBe(`provider ${host}_0000:5e:00.0 is missing`);
      expect(reconciler.status()).toMatchObject({ running: true, holdsLease: true });
      expect(standby.status()).toMatchObject({ running: true, holdsLease: false });
    });

    it('re-reads and retries when another writer moves a provider\'s generation between its read and its write', async () => {
      const host = uniqueHost();
      await novaComputeNode(host);
      const device: DeviceSpec = { pciAddress: '0000:5e:00.0', traits: [] };
      source.set(desiredHost(host, 1, [device]));
      await reconciler.reconcileHosts([host]);
      const uuid = desiredDevice(host, device).uuid;
      let interfered = false;
      const racing: PlacementApi = Object.assign(Object.create(api) as PlacementApi, {
        async setInventories(target: string, generation: number, inventories: Parameters<PlacementApi['setInventories']>[2]) {
          if (!interfered) {
            interfered = true;
            const current = await api.getTraits(target);
            await api.setTraits(target, current.generation, current.value);
          }
          return api.setInventories(target, generation, inventories);
        },
      });
      reconciler = reconcilerWith({ api: racing });

      source.set(desiredHost(host, 2, [{ ...device, disabled: true }]));
      const [status] = await reconciler.reconcileHosts([host]);

      expect(interfered).toBe(true);
      expect(status).toMatchObject({ state: 'in-sync', position: 2 });
      expect((await api.getInventories(uuid)).value.FPGA.reserved).toBe(1);
    });
  });
}
