import { randomUUID } from 'node:crypto';
import { fixedServiceAccess } from '@ledger/kernel';
import { HttpPlacementApi } from '../infrastructure/http-placement-api';

/**
 * What Nova does that the ledger never does: allocate and free resources on
 * providers. Tests use it to hold a provider the ledger wants gone.
 */
export interface PlacementAllocations {
  allocate(consumer: string, byProvider: Record<string, Record<string, number>>): Promise<void>;
  deallocate(consumer: string): Promise<void>;
}

/** Nova's calls against a real Placement: `PUT /allocations/{consumer}` at 1.28 (a new consumer has generation null), `DELETE` to free. */
export function httpPlacementAllocations(url: string, token = 'admin'): PlacementAllocations {
  const headers = { 'x-auth-token': token, 'openstack-api-version': 'placement 1.28', 'content-type': 'application/json' };
  const project = randomUUID();
  const user = randomUUID();
  return {
    async allocate(consumer, byProvider) {
      const allocations = Object.fromEntries(Object.entries(byProvider).map(([uuid, resources]) => [uuid, { resources }]));
      const response = await fetch(`${url}/allocations/${consumer}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ allocations, project_id: project, user_id: user, consumer_generation: null }),
      });
      if (response.status !== 204) throw new Error(`PUT /allocations/${consumer} answered ${response.status}: ${await response.text()}`);
    },
    async deallocate(consumer) {
      const response = await fetch(`${url}/allocations/${consumer}`, { method: 'DELETE', headers });
      if (response.status !== 204) throw new Error(`DELETE /allocations/${consumer} answered ${response.status}: ${await response.text()}`);
    },
  };
}

/** The HTTP adapter on a real Placement and Nova's allocations there, as the contract and scenario suites take them. */
export function httpPlacement(url: string): { api: HttpPlacementApi; allocations: PlacementAllocations } {
  return { api: new HttpPlacementApi({ access: fixedServiceAccess(url, 'admin') }), allocations: httpPlacementAllocations(url) };
}
