import type { ActualHostPlacement, ActualProvider, Inventories, InventoryRecord } from './actual-placement';
import type { DesiredHostPlacement, DesiredProvider } from './desired-placement';
import type { BlockedProvider, HostPlacementPlan, PlacementStep } from './placement-steps';

/**
 * The smallest set of Placement writes that turns what a host's tree holds
 * into what the ledger wants: a missing provider is created with its
 * inventory and traits (three writes), a present one gets only the writes
 * whose content differs, and a provider no longer wanted is deleted — unless
 * consumers hold allocations on it, in which case its whole inventory is
 * reserved (nothing new lands there) and it waits, blocked.
 */
export function planHostPlacement(desired: DesiredHostPlacement, actual: ActualHostPlacement): HostPlacementPlan {
  const actualByUuid = new Map(actual.providers.map((provider) => [provider.uuid, provider]));
  const wanted = new Set(desired.providers.map((provider) => provider.uuid));
  const steps: PlacementStep[] = [];
  for (const provider of desired.providers) steps.push(...stepsToMatch(provider, actual.computeNodeUuid, actualByUuid.get(provider.uuid)));
  const blocked: BlockedProvider[] = [];
  for (const provider of actual.providers) {
    if (wanted.has(provider.uuid)) continue;
    const usages = inUse(provider.usages);
    if (usages === undefined) {
      steps.push({ kind: 'delete-provider', uuid: provider.uuid, name: provider.name, why: `provider ${provider.name} is no longer wanted` });
      continue;
    }
    blocked.push({ uuid: provider.uuid, name: provider.name, usages });
    const reservedAll = reserveEverything(provider.inventories);
    if (!sameInventories(reservedAll, provider.inventories)) {
      steps.push({ kind: 'set-inventories', uuid: provider.uuid, inventories: reservedAll, why: `provider ${provider.name} is held by allocations: reserve all of it until they go` });
    }
  }
  return { steps, blocked };
}

/**
 * The inventory the ledger writes for a desired provider; Placement's
 * defaults for the fields Cyborg leaves out. What consumers already hold
 * (`used`) is never reserved: Placement checks a consumer's whole
 * allocation again whenever it is rewritten, so a provider reserved whole
 * under an allocation refuses its holder's next write. Nova rewrites the
 * instance's allocations on an evacuate (source and destination in one
 * PUT), and would get 409 for the fenced source. Reserving only what is
 * free still offers nothing new there.
 */
export function desiredInventories(provider: DesiredProvider, used = 0): Inventories {
  if (provider.total < 1) return {};
  const reserved = Math.min(provider.reserved, Math.max(0, provider.total - used));
  return {
    [provider.resourceClass]: { total: provider.total, reserved, minUnit: 1, maxUnit: provider.maxUnit, stepSize: 1, allocationRatio: 1 },
  };
}

function stepsToMatch(provider: DesiredProvider, parentUuid: string, actual: ActualProvider | undefined): PlacementStep[] {
  const inventories = desiredInventories(provider, actual?.usages?.[provider.resourceClass] ?? 0);
  if (actual === undefined) {
    const why = `provider ${provider.name} is missing`;
    return [
      { kind: 'create-provider', uuid: provider.uuid, name: provider.name, parentUuid, why },
      ...(Object.keys(inventories).length > 0 ? [{ kind: 'set-inventories' as const, uuid: provider.uuid, inventories, why }] : []),
      { kind: 'set-traits', uuid: provider.uuid, traits: provider.traits, why },
    ];
  }
  const steps: PlacementStep[] = [];
  if (!sameInventories(inventories, actual.inventories)) {
    steps.push({ kind: 'set-inventories', uuid: provider.uuid, inventories, why: `inventory of ${provider.name} differs: ${describeInventories(actual.inventories)} → ${describeInventories(inventories)}` });
  }
  const traitChange = describeTraitChange(actual.traits, provider.traits);
  if (traitChange !== undefined) steps.push({ kind: 'set-traits', uuid: provider.uuid, traits: provider.traits, why: `traits of ${provider.name} differ: ${traitChange}` });
  return steps;
}

function inUse(usages: Readonly<Record<string, number>> | undefined): Readonly<Record<string, number>> | undefined {
  if (usages === undefined) return undefined;
  const used = Object.entries(usages).filter(([, amount]) => amount > 0);
  return used.length > 0 ? Object.fromEntries(used) : undefined;
}

function reserveEverything(inventories: Inventories): Inventories {
  return Object.fromEntries(Object.entries(inventories).map(([resourceClass, record]) => [resourceClass, { ...record, reserved: record.total }]));
}

const FIELDS: readonly (keyof InventoryRecord)[] = ['total', 'reserved', 'minUnit', 'maxUnit', 'stepSize', 'allocationRatio'];

export function sameInventories(a: Inventories, b: Inventories): boolean {
  const classes = Object.keys(a);
  if (classes.length !== Object.keys(b).length) return false;
  return classes.every((resourceClass) => b[resourceClass] !== undefined && FIELDS.every((field) => a[resourceClass][field] === b[resourceClass][field]));
}

function describeInventories(inventories: Inventories): string {
  const parts = Object.entries(inventories).map(([resourceClass, record]) => `${resourceClass} total ${record.total} reserved ${record.reserved} max_unit ${record.maxUnit}` + (record.minUnit !== 1 || record.stepSize !== 1 || record.allocationRatio !== 1 ? ` min_unit ${record.minUnit} step_size ${record.stepSize} allocation_ratio ${record.allocationRatio}` : ''));
  return parts.length > 0 ? parts.join(', ') : 'none';
}

function describeTraitChange(actual: readonly string[], desired: readonly string[]): string | undefined {
  const have = new Set(actual);
  const want = new Set(desired);
  const added = desired.filter((trait) => !have.has(trait));
  const removed = actual.filter((trait) => !want.has(trait));
  if (added.length === 0 && removed.length === 0) return undefined;
  return [...added.map((trait) => `+${trait}`), ...removed.map((trait) => `-${trait}`)].join(' ');
}
