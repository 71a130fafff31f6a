import { InMemoryPlacementApi } from './in-memory-placement-api';
import { describePlacementApiContract } from './placement-api.contract';

describePlacementApiContract('in memory', () => {
  const api = new InMemoryPlacementApi();
  return {
    api,
    allocations: {
      allocate: async (consumer, byProvider) => api.allocate(consumer, byProvider),
      deallocate: async (consumer) => api.deallocate(consumer),
    },
  };
});
