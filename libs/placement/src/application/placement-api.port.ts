import type { Inventories } from '../domain/actual-placement';

/** A resource provider as Placement lists it. */
export interface PlacementProvider {
  readonly uuid: string;
  readonly name: string;
  readonly generation: number;
  readonly parentUuid?: string;
  readonly rootUuid: string;
}

/** A provider-scoped read together with the generation it was read at. */
export interface Generational<T> {
  readonly generation: number;
  readonly value: T;
}

export interface ProviderQuery {
  /** Only providers in the tree rooted at (or containing) this provider. */
  readonly inTree?: string;
  /** Only providers carrying every one of these traits. */
  readonly required?: readonly string[];
  readonly name?: string;
}

/**
 * What the ledger asks of OpenStack Placement. Writes to a provider carry the
 * generation they were based on; a stale one fails with
 * PlacementGenerationConflictError and changes nothing. Every method may
 * fail with PlacementUnavailableError (retry later, forever).
 */
export interface PlacementApi {
  listProviders(query: ProviderQuery): Promise<PlacementProvider[]>;
  getProvider(uuid: string): Promise<PlacementProvider | undefined>;
  /** Fails with PlacementDuplicateError when the uuid or the name is taken. */
  createProvider(provider: { uuid: string; name: string; parentUuid?: string }): Promise<PlacementProvider>;
  /** Resolves to false when there was no such provider; fails with PlacementInUseError while it holds allocations. */
  deleteProvider(uuid: string): Promise<boolean>;
  getInventories(uuid: string): Promise<Generational<Inventories>>;
  /** Replaces the whole inventory; resolves to the provider's new generation. */
  setInventories(uuid: string, generation: number, inventories: Inventories): Promise<number>;
  getTraits(uuid: string): Promise<Generational<string[]>>;
  /** Replaces the provider's traits; resolves to its new generation. */
  setTraits(uuid: string, generation: number, traits: readonly string[]): Promise<number>;
  getUsages(uuid: string): Promise<Generational<Record<string, number>>>;
  /** Consumer uuid → resource class → amount. */
  getAllocations(uuid: string): Promise<Generational<Record<string, Record<string, number>>>>;
  /** Resolves to whether this call created it (false: it existed). */
  ensureResourceClass(name: string): Promise<boolean>;
  /** Resolves to false when there was none; fails with PlacementInUseError while an inventory uses it. */
  deleteResourceClass(name: string): Promise<boolean>;
  ensureTrait(name: string): Promise<boolean>;
  deleteTrait(name: string): Promise<boolean>;
}

export const PLACEMENT_API = Symbol('PLACEMENT_API');
