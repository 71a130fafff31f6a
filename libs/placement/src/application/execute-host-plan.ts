import type { ActualHostPlacement, ActualProvider } from '../domain/actual-placement';
import type { PlacementStep } from '../domain/placement-steps';
import type { PlacementApi } from './placement-api.port';

/**
 * Makes the plan's writes in order, each against the generation the
 * previous one answered, and resolves to what Placement holds afterwards.
 * A stale generation or a provider that changed meanwhile fails the call
 * (PlacementGenerationConflictError, PlacementInUseError…): the caller
 * re-reads and re-plans.
 */
export async function executeHostPlan(api: PlacementApi, actual: ActualHostPlacement, steps: readonly PlacementStep[]): Promise<ActualHostPlacement> {
  const providers = new Map<string, ActualProvider>(actual.providers.map((provider) => [provider.uuid, provider]));
  const current = (uuid: string): ActualProvider => {
    const provider = providers.get(uuid);
    if (provider === undefined) throw new Error(`the plan writes to provider ${uuid} it neither read nor created`);
    return provider;
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'create-provider': {
        const created = await api.createProvider({ uuid: step.uuid, name: step.name, parentUuid: step.parentUuid });
        providers.set(step.uuid, { uuid: step.uuid, name: step.name, generation: created.generation, inventories: {}, traits: [] });
        break;
      }
      case 'set-inventories': {
        const provider = current(step.uuid);
        const generation = await api.setInventories(step.uuid, provider.generation, step.inventories);
        providers.set(step.uuid, { ...provider, generation, inventories: step.inventories });
        break;
      }
      case 'set-traits': {
        const provider = current(step.uuid);
        const generation = await api.setTraits(step.uuid, provider.generation, step.traits);
        providers.set(step.uuid, { ...provider, generation, traits: [...step.traits].sort() });
        break;
      }
      case 'delete-provider':
        await api.deleteProvider(step.uuid);
        providers.delete(step.uuid);
        break;
    }
  }
  return { computeNodeUuid: actual.computeNodeUuid, providers: [...providers.values()] };
}
