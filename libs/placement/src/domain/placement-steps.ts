import type { Inventories } from './actual-placement';

/**
 * One write the reconciler makes in Placement. Each says why, so a repaired
 * drift can be reported as what was found wrong.
 */
export type PlacementStep =
  | { readonly kind: 'create-provider'; readonly uuid: string; readonly name: string; readonly parentUuid: string; readonly why: string }
  | { readonly kind: 'set-inventories'; readonly uuid: string; readonly inventories: Inventories; readonly why: string }
  | { readonly kind: 'set-traits'; readonly uuid: string; readonly traits: readonly string[]; readonly why: string }
  | { readonly kind: 'delete-provider'; readonly uuid: string; readonly name: string; readonly why: string };

/** A provider the desired state dropped that cannot go while consumers hold allocations on it. */
export interface BlockedProvider {
  readonly uuid: string;
  readonly name: string;
  readonly usages: Readonly<Record<string, number>>;
}

export interface HostPlacementPlan {
  /** In execution order: creations before their inventories and traits. */
  readonly steps: readonly PlacementStep[];
  readonly blocked: readonly BlockedProvider[];
}
