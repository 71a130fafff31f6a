import type { Inventories } from '../domain/actual-placement';
import { isCustomName } from '../domain/placement-names';
import {
  PlacementDuplicateError,
  PlacementGenerationConflictError,
  PlacementInUseError,
  PlacementNotFoundError,
  PlacementRequestError,
  PlacementUnavailableError,
} from '../application/placement-api.errors';
import type { Generational, PlacementApi, PlacementProvider, ProviderQuery } from '../application/placement-api.port';
import type { PlacementAllocations } from './placement-allocations';

interface StoredProvider {
  uuid: string;
  name: string;
  generation: number;
  parentUuid?: string;
  rootUuid: string;
  inventories: Inventories;
  traits: Set<string>;
}

/** The standard classes (os-resource-classes) the ledger's devices use, and a few more. */
const STANDARD_RESOURCE_CLASSES = new Set(['VCPU', 'MEMORY_MB', 'DISK_GB', 'PCI_DEVICE', 'SRIOV_NET_VF', 'VGPU', 'VGPU_DISPLAY_HEAD', 'PGPU', 'FPGA', 'NUMA_SOCKET']);

/**
 * Placement in memory, for fast unit tests: the same generations, 409s and
 * in-use refusals as the real service (the contract suite runs against
 * both). Traits without the CUSTOM_ prefix count as standard ones that exist.
 */
export class InMemoryPlacementApi implements PlacementApi {
  private readonly providers = new Map<string, StoredProvider>();
  private readonly customResourceClasses = new Set<string>();
  private readonly customTraits = new Set<string>();
  /** consumer → provider → resource class → amount */
  private readonly allocations = new Map<string, Map<string, Record<string, number>>>();
  private calls = 0;
  private unavailable = false;

  get callCount(): number {
    return this.calls;
  }

  /** While true, every call fails as if Placement were down. */
  setUnavailable(unavailable: boolean): void {
    this.unavailable = unavailable;
  }

  /** Nova's `PUT /allocations/{consumer}`: replaces the consumer's allocations and moves the providers' generations. */
  allocate(consumer: string, byProvider: Record<string, Record<string, number>>): void {
    for (const uuid of Object.keys(byProvider)) this.provider('allocate', uuid).generation += 1;
    this.allocations.set(consumer, new Map(Object.entries(byProvider)));
  }

  /** `DELETE /allocations/{consumer}`, which (as in Placement) leaves the providers' generations alone. */
  deallocate(consumer: string): void {
    this.allocations.delete(consumer);
  }

  async listProviders(query: ProviderQuery): Promise<PlacementProvider[]> {
    this.enter('list providers');
    const root = query.inTree === undefined ? undefined : this.providers.get(query.inTree)?.rootUuid;
    if (query.inTree !== undefined && root === undefined) throw new PlacementRequestError('list providers', 400, `no provider ${query.inTree}`);
    return [...this.providers.values()]
      .filter((provider) => query.name === undefined || provider.name === query.name)
      .filter((provider) => root === undefined || provider.rootUuid === root)
      .filter((provider) => (query.required ?? []).every((trait) => provider.traits.has(trait)))
      .map(view);
  }

  async getProvider(uuid: string): Promise<PlacementProvider | undefined> {
    this.enter('get provider');
    const provider = this.providers.get(uuid);
    return provider && view(provider);
  }

  async createProvider(provider: { uuid: string; name: string; parentUuid?: string }): Promise<PlacementProvider> {
    const operation = `create provider ${provider.name}`;
    this.enter(operation);
    if (this.providers.has(provider.uuid)) throw new PlacementDuplicateError(operation, `uuid ${provider.uuid} exists`);
    if ([...this.providers.values()].some((other) => other.name === provider.name)) throw new PlacementDuplicateError(operation, `name ${provider.name} exists`);
    const parent = provider.parentUuid === undefined ? undefined : this.providers.get(provider.parentUuid);
    if (provider.parentUuid !== undefined && parent === undefined) throw new PlacementRequestError(operation, 400, `parent ${provider.parentUuid} does not exist`);
    const stored: StoredProvider = {
      uuid: provider.uuid,
      name: provider.name,
      generation: 0,
      parentUuid: provider.parentUuid,
      rootUuid: parent?.rootUuid ?? provider.uuid,
      inventories: {},
      traits: new Set(),
    };
    this.providers.set(stored.uuid, stored);
    return view(stored);
  }

  async deleteProvider(uuid: string): Promise<boolean> {
    const operation = `delete provider ${uuid}`;
    this.enter(operation);
    if (!this.providers.has(uuid)) return false;
    if ([...this.providers.values()].some((other) => other.parentUuid === uuid)) throw new PlacementInUseError(operation, 'it has children');
    if (Object.keys(this.usagesOf(uuid)).length > 0) throw new PlacementInUseError(operation, 'it has allocations');
    this.providers.delete(uuid);
    return true;
  }

  async getInventories(uuid: string): Promise<Generational<Inventories>> {
    this.enter('get inventories');
    const provider = this.provider('get inventories', uuid);
    return { generation: provider.generation, value: structuredClone(provider.inventories) };
  }

  async setInventories(uuid: string, generation: number, inventories: Inventories): Promise<number> {
    const operation = `set inventories of ${uuid}`;
    this.enter(operation);
    const provider = this.writable(operation, uuid, generation);
    for (const [resourceClass, record] of Object.entries(inventories)) {
      if (!this.resourceClassExists(resourceClass)) throw new PlacementRequestError(operation, 400, `no resource class ${resourceClass}`);
      if (record.total < 1 || record.reserved > record.total || record.maxUnit < 1) throw new PlacementRequestError(operation, 400, `bad inventory for ${resourceClass}`);
    }
    const used = this.usagesOf(uuid);
    const dropped = Object.keys(used).filter((resourceClass) => inventories[resourceClass] === undefined);
    if (dropped.length > 0) throw new PlacementInUseError(operation, `allocations use ${dropped.join(', ')}`);
    provider.inventories = structuredClone(inventories);
    provider.generation += 1;
    return provider.generation;
  }

  async getTraits(uuid: string): Promise<Generational<string[]>> {
    this.enter('get traits');
    const provider = this.provider('get traits', uuid);
    return { generation: provider.generation, value: [...provider.traits].sort() };
  }

  async setTraits(uuid: string, generation: number, traits: readonly string[]): Promise<number> {
    const operation = `set traits of ${uuid}`;
    this.enter(operation);
    const provider = this.writable(operation, uuid, generation);
    const unknown = traits.filter((trait) => isCustomName(trait) && !this.customTraits.has(trait));
    if (unknown.length > 0) throw new PlacementRequestError(operation, 400, `no such traits: ${unknown.join(', ')}`);
    provider.traits = new Set(traits);
    provider.generation += 1;
    return provider.generation;
  }

  async getUsages(uuid: string): Promise<Generational<Record<string, number>>> {
    this.enter('get usages');
    const provider = this.provider('get usages', uuid);
    // Like Placement: every class in the inventory, 0 where nothing is allocated.
    const zeros = Object.fromEntries(Object.keys(provider.inventories).map((resourceClass) => [resourceClass, 0]));
    return { generation: provider.generation, value: { ...zeros, ...this.usagesOf(uuid) } };
  }

  async getAllocations(uuid: string): Promise<Generational<Record<string, Record<string, number>>>> {
    this.enter('get allocations');
    const provider = this.provider('get allocations', uuid);
    const byConsumer: Record<string, Record<string, number>> = {};
    for (const [consumer, byProvider] of this.allocations) {
      const resources = byProvider.get(uuid);
      if (resources) byConsumer[consumer] = { ...resources };
    }
    return { generation: provider.generation, value: byConsumer };
  }

  async ensureResourceClass(name: string): Promise<boolean> {
    this.enter(`ensure resource class ${name}`);
    return this.ensureCustom(`ensure resource class ${name}`, name, this.customResourceClasses);
  }

  async deleteResourceClass(name: string): Promise<boolean> {
    const operation = `delete resource class ${name}`;
    this.enter(operation);
    if (!isCustomName(name)) throw new PlacementRequestError(operation, 400, 'standard resource classes cannot be deleted');
    if (!this.customResourceClasses.has(name)) return false;
    if ([...this.providers.values()].some((provider) => provider.inventories[name] !== undefined)) throw new PlacementInUseError(operation, 'an inventory uses it');
    this.customResourceClasses.delete(name);
    return true;
  }

  async ensureTrait(name: string): Promise<boolean> {
    this.enter(`ensure trait ${name}`);
    return this.ensureCustom(`ensure trait ${name}`, name, this.customTraits);
  }

  async deleteTrait(name: string): Promise<boolean> {
    const operation = `delete trait ${name}`;
    this.enter(operation);
    if (!isCustomName(name)) throw new PlacementRequestError(operation, 400, 'standard traits cannot be deleted');
    if (!this.customTraits.has(name)) return false;
    if ([...this.providers.values()].some((provider) => provider.traits.has(name))) throw new PlacementInUseError(operation, 'a provider carries it');
    this.customTraits.delete(name);
    return true;
  }

  private enter(operation: string): void {
    this.calls += 1;
    if (this.unavailable) throw new PlacementUnavailableError(operation, 'ECONNREFUSED');
  }

  private ensureCustom(operation: string, name: string, names: Set<string>): boolean {
    if (!/^CUSTOM_[A-Z0-9_]+$/.test(name)) throw new PlacementRequestError(operation, 400, `${name} is not a CUSTOM_ name`);
    if (names.has(name)) return false;
    names.add(name);
    return true;
  }

  private resourceClassExists(name: string): boolean {
    return STANDARD_RESOURCE_CLASSES.has(name) || this.customResourceClasses.has(name);
  }

  private provider(operation: string, uuid: string): StoredProvider {
    const provider = this.providers.get(uuid);
    if (!provider) throw new PlacementNotFoundError(operation, `no provider ${uuid}`);
    return provider;
  }

  private writable(operation: string, uuid: string, generation: number): StoredProvider {
    const provider = this.provider(operation, uuid);
    if (provider.generation !== generation) throw new PlacementGenerationConflictError(operation, `generation ${generation} is not ${provider.generation}`);
    return provider;
  }

  private usagesOf(uuid: string): Record<string, number> {
    const usages: Record<string, number> = {};
    for (const byProvider of this.allocations.values()) {
      for (const [resourceClass, amount] of Object.entries(byProvider.get(uuid) ?? {})) usages[resourceClass] = (usages[resourceClass] ?? 0) + amount;
    }
    return usages;
  }
}

function view(provider: StoredProvider): PlacementProvider {
  return { uuid: provider.uuid, name: provider.name, generation: provider.generation, rootUuid: provider.rootUuid, ...(provider.parentUuid ? { parentUuid: provider.parentUuid } : {}) };
}

/** A fresh fake and Nova's allocations on it, as the contract and scenario suites take them. */
export function inMemoryPlacement(): { api: InMemoryPlacementApi; allocations: PlacementAllocations } {
  const api = new InMemoryPlacementApi();
  return {
    api,
    allocations: {
      allocate: async (consumer, byProvider) => api.allocate(consumer, byProvider),
      deallocate: async (consumer) => api.deallocate(consumer),
    },
  };
}
