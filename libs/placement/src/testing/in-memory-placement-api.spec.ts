import { inMemoryPlacement } from './in-memory-placement-api';
import { describePlacementApiContract } from './placement-api.contract';

describePlacementApiContract('in memory', inMemoryPlacement);
