import { fixedServiceAccess } from '@ledger/kernel';
import { describeWithService, placementUnavailable, placementUrl } from '../../../../test/support/services';
import { describePlacementApiContract } from '../testing/placement-api.contract';
import { httpPlacement } from '../testing/placement-allocations';
import { PlacementUnavailableError } from '../application/placement-api.errors';
import { HttpPlacementApi } from './http-placement-api';
import { freePort } from '../../../../test/support/ledger-process';

const describeReal = describeWithService('Placement', placementUnavailable());

describePlacementApiContract(
  'HTTP on the real Placement',
  () => httpPlacement(placementUrl()),
  describeReal,
);

describeReal('HttpPlacementApi', () => {
  it('counts every call it sends', async () => {
    const api = new HttpPlacementApi({ access: fixedServiceAccess(placementUrl(), 'admin') });
    await api.listProviders({ name: 'nobody' });
    await api.getProvider('00000000-0000-4000-8000-000000000000');
    expect(api.callCount).toBe(2);
  });

  it('reports a Placement that does not answer as unavailable', async () => {
    const api = new HttpPlacementApi({ access: fixedServiceAccess(`http://127.0.0.1:${await freePort()}`, 'admin') });
    await expect(api.listProviders({})).rejects.toBeInstanceOf(PlacementUnavailableError);
  });
});
