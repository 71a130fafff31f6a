import { randomUUID } from 'node:crypto';
import type { InventoryRecord } from '../domain/actual-placement';
import { OWNER_TRAIT } from '../domain/desired-placement';
import {
  PlacementDuplicateError,
  PlacementGenerationConflictError,
  PlacementInUseError,
  PlacementNotFoundError,
  PlacementRequestError,
} from '../application/placement-api.errors';
import type { PlacementApi } from '../application/placement-api.port';
import type { PlacementAllocations } from './placement-allocations';

export interface PlacementContractSubject {
  readonly api: PlacementApi;
  readonly allocations: PlacementAllocations;
}

const fpga = (overrides: Partial<InventoryRecord> = {}): InventoryRecord => ({ total: 2, reserved: 0, minUnit: 1, maxUnit: 2, stepSize: 1, allocationRatio: 1, ...overrides });

/** A custom name no other test (or earlier run against a shared Placement) uses. */
const uniqueName = (prefix: string): string => `CUSTOM_${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;

/**
 * The behaviour the reconciler relies on, run against the HTTP adapter on a
 * real Placement and against the in-memory fake. Every test makes its own
 * providers and names, so one Placement serves every suite of a run.
 */
export function describePlacementApiContract(name: string, open: () => PlacementContractSubject, describeFn: jest.Describe = describe): void {
  describeFn(`PlacementApi contract: ${name}`, () => {
    let api: PlacementApi;
    let allocations: PlacementAllocations;

    beforeEach(() => {
      ({ api, allocations } = open());
    });

    async function computeNodeWithChild(): Promise<{ root: string; child: string }> {
      const root = randomUUID();
      const child = randomUUID();
      await api.createProvider({ uuid: root, name: `cn-${root}` });
      await api.createProvider({ uuid: child, name: `cn-${root}_0000:5e:00.0`, parentUuid: root });
      return { root, child };
    }

    it('creates a child provider at generation 0 under its compute node, and finds it in the tree by a required trait', async () => {
      const { root, child } = await computeNodeWithChild();
      expect(await api.getProvider(child)).toEqual({ uuid: child, name: `cn-${root}_0000:5e:00.0`, generation: 0, parentUuid: root, rootUuid: root });
      expect((await api.listProviders({ name: `cn-${root}` })).map((provider) => provider.uuid)).toEqual([root]);
      expect((await api.listProviders({ inTree: root, required: [OWNER_TRAIT] })).map((provider) => provider.uuid)).toEqual([]);
      await api.setTraits(child, 0, [OWNER_TRAIT]);
      expect(await api.listProviders({ inTree: root, required: [OWNER_TRAIT] })).toEqual([expect.objectContaining({ uuid: child, generation: 1, parentUuid: root })]);
      expect((await api.listProviders({ required: [OWNER_TRAIT] })).map((provider) => provider.uuid)).toContain(child);
    });

    it('refuses a second provider with the same uuid or name', async () => {
      const { root, child } = await computeNodeWithChild();
      await expect(api.createProvider({ uuid: child, name: `other-${child}`, parentUuid: root })).rejects.toBeInstanceOf(PlacementDuplicateError);
      await expect(api.createProvider({ uuid: randomUUID(), name: `cn-${root}` })).rejects.toBeInstanceOf(PlacementDuplicateError);
    });

    it('writes inventories against the generation, answers the next one, and refuses a stale one without changing anything', async () => {
      const { child } = await computeNodeWithChild();
      expect(await api.setInventories(child, 0, { FPGA: fpga() })).toBe(1);
      await expect(api.setInventories(child, 0, { FPGA: fpga({ total: 5, maxUnit: 5 }) })).rejects.toBeInstanceOf(PlacementGenerationConflictError);
      expect(await api.getInventories(child)).toEqual({ generation: 1, value: { FPGA: fpga() } });
    });

    it('accepts reserved = total (a disabled device)', async () => {
      const { child } = await computeNodeWithChild();
      await api.setInventories(child, 0, { FPGA: fpga({ reserved: 2 }) });
      expect((await api.getInventories(child)).value.FPGA.reserved).toBe(2);
    });

    it('sets traits against the generation; a custom trait must exist first', async () => {
      const { child } = await computeNodeWithChild();
      const trait = uniqueName('CT');
      await expect(api.setTraits(child, 0, [OWNER_TRAIT, trait])).rejects.toBeInstanceOf(PlacementRequestError);
      expect(await api.ensureTrait(trait)).toBe(true);
      expect(await api.ensureTrait(trait)).toBe(false);
      expect(await api.setTraits(child, 0, [trait, OWNER_TRAIT])).toBe(1);
      await expect(api.setTraits(child, 0, [OWNER_TRAIT])).rejects.toBeInstanceOf(PlacementGenerationConflictError);
      expect(await api.getTraits(child)).toEqual({ generation: 1, value: [trait, OWNER_TRAIT].sort() });
    });

    it('refuses to delete a trait a provider carries, and deletes it once none does', async () => {
      const { child } = await computeNodeWithChild();
      const trait = uniqueName('CT');
      await api.ensureTrait(trait);
      const generation = await api.setTraits(child, 0, [trait]);
      await expect(api.deleteTrait(trait)).rejects.toBeInstanceOf(PlacementInUseError);
      await api.setTraits(child, generation, []);
      expect(await api.deleteTrait(trait)).toBe(true);
      expect(await api.deleteTrait(trait)).toBe(false);
    });

    it('creates a custom resource class once, refuses to delete it while an inventory uses it', async () => {
      const { child } = await computeNodeWithChild();
      const resourceClass = uniqueName('RC');
      expect(await api.ensureResourceClass(resourceClass)).toBe(true);
      expect(await api.ensureResourceClass(resourceClass)).toBe(false);
      const generation = await api.setInventories(child, 0, { [resourceClass]: fpga() });
      await expect(api.deleteResourceClass(resourceClass)).rejects.toBeInstanceOf(PlacementInUseError);
      await api.setInventories(child, generation, {});
      expect(await api.deleteResourceClass(resourceClass)).toBe(true);
      expect(await api.deleteResourceClass(resourceClass)).toBe(false);
    });

    it('shows allocations in usages; refuses to delete a provider holding one, deletes it once freed', async () => {
      const { child } = await computeNodeWithChild();
      await api.setInventories(child, 0, { FPGA: fpga() });
      const consumer = randomUUID();
      await allocations.allocate(consumer, { [child]: { FPGA: 1 } });
      expect((await api.getUsages(child)).value).toEqual({ FPGA: 1 });
      expect((await api.getAllocations(child)).value).toEqual({ [consumer]: { FPGA: 1 } });
      const { generation } = await api.getInventories(child);
      expect(generation).toBe(2);
      await expect(api.deleteProvider(child)).rejects.toBeInstanceOf(PlacementInUseError);
      await expect(api.setInventories(child, generation, {})).rejects.toBeInstanceOf(PlacementInUseError);
      await api.setInventories(child, generation, { FPGA: fpga({ reserved: 2 }) });
      await allocations.deallocate(consumer);
      expect((await api.getUsages(child)).value).toEqual({ FPGA: 0 });
      expect(await api.deleteProvider(child)).toBe(true);
      expect(await api.getProvider(child)).toBeUndefined();
    });

    it('refuses to delete a compute node with children', async () => {
      const { root } = await computeNodeWithChild();
      await expect(api.deleteProvider(root)).rejects.toBeInstanceOf(PlacementInUseError);
    });

    it('says when there is no such provider', async () => {
      const missing = randomUUID();
      expect(await api.getProvider(missing)).toBeUndefined();
      expect(await api.deleteProvider(missing)).toBe(false);
      await expect(api.getInventories(missing)).rejects.toBeInstanceOf(PlacementNotFoundError);
      await expect(api.setTraits(missing, 0, [])).rejects.toBeInstanceOf(PlacementNotFoundError);
    });
  });
}
