/** One resource class's inventory on a provider, with every field the ledger sets. */
export interface InventoryRecord {
  readonly total: number;
  readonly reserved: number;
  readonly minUnit: number;
  readonly maxUnit: number;
  readonly stepSize: number;
  readonly allocationRatio: number;
}

export type Inventories = Readonly<Record<string, InventoryRecord>>;

/** A provider as Placement holds it, as far as the reconciler read it. */
export interface ActualProvider {
  readonly uuid: string;
  readonly name: string;
  readonly generation: number;
  readonly inventories: Inventories;
  /** Sorted. */
  readonly traits: readonly string[];
  /** Amounts allocated per resource class; read only for providers the desired state no longer has or reserves something of. */
  readonly usages?: Readonly<Record<string, number>>;
}

/** What Placement holds under one compute node: the providers carrying the owner trait. */
export interface ActualHostPlacement {
  readonly computeNodeUuid: string;
  readonly providers: readonly ActualProvider[];
}
