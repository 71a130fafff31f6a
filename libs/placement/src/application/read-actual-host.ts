import type { ActualHostPlacement, ActualProvider } from '../domain/actual-placement';
import { OWNER_TRAIT } from '../domain/desired-placement';
import { PlacementProviderConflictError } from './placement-api.errors';
import type { PlacementApi, PlacementProvider } from './placement-api.port';

export interface ReadActualHostInput {
  readonly computeNodeUuid: string;
  /** The host's owned providers from a listing already made (the periodic compare's); undefined: list the tree. */
  readonly listed?: readonly PlacementProvider[];
  /** What the reconciler last knew of the host: a provider at the same generation is not read again. */
  readonly known?: ActualHostPlacement;
  /** Providers the desired state has, to tell which need usages read. */
  readonly wanted: ReadonlySet<string>;
  /** Wanted providers the ledger reserves something of: their usages are read too, since what is allocated is never reserved. */
  readonly reserving?: ReadonlySet<string>;
  /** Desired providers missing from the owned listing to look up one by one (after a create found the uuid taken). */
  readonly lookUp?: readonly string[];
}

/**
 * What Placement holds under one compute node, in as few calls as it can:
 * one tree listing (none when the compare's listing is given), then
 * inventories and traits only of providers whose generation moved since
 * the reconciler last knew them, and usages only of providers the ledger
 * no longer wants or reserves (freeing allocations does not move a
 * generation, so these are read at every sync).
 */
export async function readActualHost(api: PlacementApi, input: ReadActualHostInput): Promise<ActualHostPlacement> {
  const listed = input.listed ?? (await api.listProviders({ inTree: input.computeNodeUuid, required: [OWNER_TRAIT] }));
  const owned = listed.filter((provider) => provider.uuid !== input.computeNodeUuid);
  const seen = new Set(owned.map((provider) => provider.uuid));
  for (const uuid of input.lookUp ?? []) {
    if (seen.has(uuid)) continue;
    const provider = await api.getProvider(uuid);
    if (provider === undefined) throw new PlacementProviderConflictError(uuid, 'its name is taken by a provider with another uuid');
    if (provider.parentUuid !== input.computeNodeUuid) throw new PlacementProviderConflictError(uuid, `it exists under another parent (${provider.parentUuid ?? 'none'})`);
    // Ours by uuid (Cyborg's uuid3 of the name) but without the owner trait: adopted, and the trait put back.
    owned.push(provider);
  }
  const known = new Map((input.known?.providers ?? []).map((provider) => [provider.uuid, provider]));
  const providers: ActualProvider[] = [];
  for (const provider of owned) providers.push(await readProvider(api, provider, known.get(provider.uuid), input.wanted.has(provider.uuid) && !(input.reserving?.has(provider.uuid) ?? false)));
  return { computeNodeUuid: input.computeNodeUuid, providers };
}

async function readProvider(api: PlacementApi, listed: PlacementProvider, known: ActualProvider | undefined, skipUsages: boolean): Promise<ActualProvider> {
  let provider: ActualProvider;
  if (known !== undefined && known.generation === listed.generation) {
    provider = { ...known, usages: undefined };
  } else {
    const inventories = await api.getInventories(listed.uuid);
    const traits = await api.getTraits(listed.uuid);
    // Read at two moments: if something moved in between, the later generation makes the next write conflict and re-read.
    provider = { uuid: listed.uuid, name: listed.name, generation: Math.min(inventories.generation, traits.generation), inventories: inventories.value, traits: traits.value };
  }
  if (skipUsages) return provider;
  const usages = await api.getUsages(listed.uuid);
  return { ...provider, usages: usages.value };
}
