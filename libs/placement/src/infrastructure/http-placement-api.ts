import { fetchFailureReason, sendWithAccess, type ServiceAccess } from '@ledger/kernel';
import type { Inventories, InventoryRecord } from '../domain/actual-placement';
import {
  PlacementDuplicateError,
  PlacementGenerationConflictError,
  PlacementInUseError,
  PlacementNotFoundError,
  PlacementRequestError,
  PlacementUnavailableError,
} from '../application/placement-api.errors';
import type { Generational, PlacementApi, PlacementProvider, ProviderQuery } from '../application/placement-api.port';
import { MICROVERSION } from './placement-microversions';

export interface HttpPlacementApiOptions {
  /**
   * Placement's endpoint and X-Auth-Token: LEDGER_PLACEMENT_URL and _TOKEN (`admin` for noauth2),
   * or the Keystone catalog's and the ledger's own token. Not knowing them now (no catalog
   * endpoint, Keystone down) counts as Placement unavailable.
   */
  readonly access: ServiceAccess;
  /** A call that takes longer counts as Placement unavailable (default 30 s). */
  readonly timeoutMs?: number;
}

interface WireProvider {
  uuid: string;
  name: string;
  generation: number;
  parent_provider_uuid?: string | null;
  root_provider_uuid: string;
}

type WireInventory = { total: number; reserved: number; min_unit: number; max_unit: number; step_size: number; allocation_ratio: number };

/** Placement's REST API over Node's fetch. Counts its calls, which the benchmarks report per device. */
export class HttpPlacementApi implements PlacementApi {
  private calls = 0;

  constructor(private readonly options: HttpPlacementApiOptions) {}

  /** HTTP requests sent so far. */
  get callCount(): number {
    return this.calls;
  }

  async listProviders(query: ProviderQuery): Promise<PlacementProvider[]> {
    const params = new URLSearchParams();
    if (query.name !== undefined) params.set('name', query.name);
    if (query.inTree !== undefined) params.set('in_tree', query.inTree);
    if (query.required !== undefined && query.required.length > 0) params.set('required', query.required.join(','));
    const search = params.size > 0 ? `?${params}` : '';
    const body = await this.call<{ resource_providers: WireProvider[] }>('GET', `/resource_providers${search}`, MICROVERSION.listProviders, 'list providers');
    return body.resource_providers.map(fromWireProvider);
  }

  async getProvider(uuid: string): Promise<PlacementProvider | undefined> {
    try {
      return fromWireProvider(await this.call<WireProvider>('GET', `/resource_providers/${uuid}`, MICROVERSION.getProvider, `get provider ${uuid}`));
    } catch (error) {
      if (error instanceof PlacementNotFoundError) return undefined;
      throw error;
    }
  }

  async createProvider(provider: { uuid: string; name: string; parentUuid?: string }): Promise<PlacementProvider> {
    const body = { uuid: provider.uuid, name: provider.name, ...(provider.parentUuid ? { parent_provider_uuid: provider.parentUuid } : {}) };
    return fromWireProvider(await this.call<WireProvider>('POST', '/resource_providers', MICROVERSION.createProvider, `create provider ${provider.name}`, body));
  }

  async deleteProvider(uuid: string): Promise<boolean> {
    return this.deleted('DELETE', `/resource_providers/${uuid}`, MICROVERSION.deleteProvider, `delete provider ${uuid}`);
  }

  async getInventories(uuid: string): Promise<Generational<Inventories>> {
    const body = await this.call<{ resource_provider_generation: number; inventories: Record<string, WireInventory> }>(
      'GET',
      `/resource_providers/${uuid}/inventories`,
      MICROVERSION.inventories,
      `get inventories of ${uuid}`,
    );
    return { generation: body.resource_provider_generation, value: fromWireInventories(body.inventories) };
  }

  async setInventories(uuid: string, generation: number, inventories: Inventories): Promise<number> {
    const body = await this.call<{ resource_provider_generation: number }>(
      'PUT',
      `/resource_providers/${uuid}/inventories`,
      MICROVERSION.inventories,
      `set inventories of ${uuid}`,
      { resource_provider_generation: generation, inventories: toWireInventories(inventories) },
    );
    return body.resource_provider_generation;
  }

  async getTraits(uuid: string): Promise<Generational<string[]>> {
    const body = await this.call<{ resource_provider_generation: number; traits: string[] }>('GET', `/resource_providers/${uuid}/traits`, MICROVERSION.traits, `get traits of ${uuid}`);
    return { generation: body.resource_provider_generation, value: [...body.traits].sort() };
  }

  async setTraits(uuid: string, generation: number, traits: readonly string[]): Promise<number> {
    const body = await this.call<{ resource_provider_generation: number }>('PUT', `/resource_providers/${uuid}/traits`, MICROVERSION.traits, `set traits of ${uuid}`, {
      resource_provider_generation: generation,
      traits,
    });
    return body.resource_provider_generation;
  }

  async getUsages(uuid: string): Promise<Generational<Record<string, number>>> {
    const body = await this.call<{ resource_provider_generation: number; usages: Record<string, number> }>('GET', `/resource_providers/${uuid}/usages`, MICROVERSION.usages, `get usages of ${uuid}`);
    return { generation: body.resource_provider_generation, value: body.usages };
  }

  async getAllocations(uuid: string): Promise<Generational<Record<string, Record<string, number>>>> {
    const body = await this.call<{ resource_provider_generation: number; allocations: Record<string, { resources: Record<string, number> }> }>(
      'GET',
      `/resource_providers/${uuid}/allocations`,
      MICROVERSION.allocations,
      `get allocations of ${uuid}`,
    );
    const allocations = Object.fromEntries(Object.entries(body.allocations).map(([consumer, { resources }]) => [consumer, resources]));
    return { generation: body.resource_provider_generation, value: allocations };
  }

  ensureResourceClass(name: string): Promise<boolean> {
    return this.ensured(`/resource_classes/${name}`, MICROVERSION.resourceClasses, `ensure resource class ${name}`);
  }

  deleteResourceClass(name: string): Promise<boolean> {
    return this.deleted('DELETE', `/resource_classes/${name}`, MICROVERSION.resourceClasses, `delete resource class ${name}`);
  }

  ensureTrait(name: string): Promise<boolean> {
    return this.ensured(`/traits/${name}`, MICROVERSION.traitNames, `ensure trait ${name}`);
  }

  deleteTrait(name: string): Promise<boolean> {
    return this.deleted('DELETE', `/traits/${name}`, MICROVERSION.traitNames, `delete trait ${name}`);
  }

  /** PUT of a name: 201 when this call created it, 204 when it existed. */
  private async ensured(path: string, microversion: string, operation: string): Promise<boolean> {
    const response = await this.send('PUT', path, microversion, operation);
    return response.status === 201;
  }

  private async deleted(method: 'DELETE', path: string, microversion: string, operation: string): Promise<boolean> {
    try {
      await this.send(method, path, microversion, operation);
      return true;
    } catch (error) {
      if (error instanceof PlacementNotFoundError) return false;
      throw error;
    }
  }

  private async call<T>(method: string, path: string, microversion: string, operation: string, body?: unknown): Promise<T> {
    const response = await this.send(method, path, microversion, operation, body);
    return (await response.json()) as T;
  }

  private async send(method: string, path: string, microversion: string, operation: string, body?: unknown): Promise<Response> {
    let response: Response;
    try {
      response = await sendWithAccess(this.options.access, { service: 'Placement', method, path }, (url, headers) => {
        this.calls += 1;
        return fetch(url, {
          method,
          headers: {
            ...headers,
            'openstack-api-version': `placement ${microversion}`,
            accept: 'application/json',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: body !== undefined ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
        });
      });
    } catch (error) {
      throw new PlacementUnavailableError(operation, fetchFailureReason(error));
    }
    if (response.ok) return response;
    throw await errorFor(operation, method, response);
  }
}

async function errorFor(operation: string, method: string, response: Response): Promise<Error> {
  const text = await response.text().catch(() => '');
  const { code, detail } = placementError(text);
  const status = response.status;
  if (status >= 500 || status === 429) return new PlacementUnavailableError(operation, `${status} ${detail}`);
  if (status === 404) return new PlacementNotFoundError(operation, detail);
  if (status === 409) {
    if (code === 'placement.concurrent_update') return new PlacementGenerationConflictError(operation, detail);
    if (code === 'placement.duplicate_name' || (method === 'POST' && code === undefined)) return new PlacementDuplicateError(operation, detail);
    return new PlacementInUseError(operation, detail);
  }
  return new PlacementRequestError(operation, status, detail);
}

/** Placement's errors: `{"errors": [{"status", "title", "detail", "code"}]}` (code from 1.23). */
function placementError(text: string): { code?: string; detail: string } {
  try {
    const first = (JSON.parse(text) as { errors?: { code?: string; detail?: string; title?: string }[] }).errors?.[0];
    if (first) return { code: first.code, detail: (first.detail ?? first.title ?? '').replace(/\s+/g, ' ').trim() };
  } catch {
    // Not Placement's JSON (a proxy's page): the text itself says most.
  }
  return { detail: text.slice(0, 200) };
}

function fromWireProvider(wire: WireProvider): PlacementProvider {
  return { uuid: wire.uuid, name: wire.name, generation: wire.generation, rootUuid: wire.root_provider_uuid, ...(wire.parent_provider_uuid ? { parentUuid: wire.parent_provider_uuid } : {}) };
}

function fromWireInventories(wire: Record<string, WireInventory>): Inventories {
  return Object.fromEntries(
    Object.entries(wire).map(([resourceClass, record]): [string, InventoryRecord] => [
      resourceClass,
      { total: record.total, reserved: record.reserved, minUnit: record.min_unit, maxUnit: record.max_unit, stepSize: record.step_size, allocationRatio: record.allocation_ratio },
    ]),
  );
}

function toWireInventories(inventories: Inventories): Record<string, WireInventory> {
  return Object.fromEntries(
    Object.entries(inventories).map(([resourceClass, record]) => [
      resourceClass,
      { total: record.total, reserved: record.reserved, min_unit: record.minUnit, max_unit: record.maxUnit, step_size: record.stepSize, allocation_ratio: record.allocationRatio },
    ]),
  );
}
