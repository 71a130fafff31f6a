/** Nova's microversions: `required` needs 1.17, nested providers in allocation candidates 1.29, `in_tree` 1.31, `mappings` 1.34; consumer_generation is sent from 1.28. */
export const NOVA_PLACEMENT_MICROVERSION = '1.36';

export interface PlacementAnswer {
  readonly status: number;
  readonly body: any;
}

export type PlacementCall = (method: string, path: string, body?: unknown, microversion?: string) => Promise<PlacementAnswer>;

/**
 * Placement's own API, as Nova and an operator's curl see it (not the
 * ledger's adapter). `token`: `admin` for a noauth2 Placement, or a
 * Keystone token (a function, so a caller can renew it) for one behind Keystone.
 */
export function placementClient(url: string, token: string | (() => string) = 'admin'): PlacementCall {
  return async (method, path, body, microversion = NOVA_PLACEMENT_MICROVERSION) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        'x-auth-token': typeof token === 'function' ? token() : token,
        'openstack-api-version': `placement ${microversion}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

export interface HeldProvider {
  readonly uuid: string;
  readonly inventories: Record<string, any>;
  readonly traits: string[];
}

/** What Placement holds under a compute node: name → {uuid, inventories, traits}. */
export async function heldUnder(call: PlacementCall, computeNode: string): Promise<Record<string, HeldProvider>> {
  const tree = await call('GET', `/resource_providers?in_tree=${computeNode}`);
  const held: Record<string, HeldProvider> = {};
  for (const provider of tree.body.resource_providers as { uuid: string; name: string }[]) {
    if (provider.uuid === computeNode) continue;
    const inventories = await call('GET', `/resource_providers/${provider.uuid}/inventories`);
    const traits = await call('GET', `/resource_providers/${provider.uuid}/traits`);
    // Deleted (by the reconciler) between the listing and these reads: gone.
    if (inventories.status === 404 || traits.status === 404) continue;
    held[provider.name] = { uuid: provider.uuid, inventories: inventories.body.inventories, traits: (traits.body.traits as string[]).sort() };
  }
  return held;
}

/** Nova's compute-node provider, as nova-compute creates it (a random uuid the ledger cannot know). */
export async function createComputeNode(call: PlacementCall, host: string): Promise<string> {
  const created = await call('POST', '/resource_providers', { name: host, uuid: crypto.randomUUID() }, '1.20');
  if (created.status !== 200) throw new Error(`Placement refused the compute node ${host}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.uuid as string;
}
