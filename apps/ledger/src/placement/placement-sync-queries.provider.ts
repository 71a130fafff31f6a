import type { Provider } from '@nestjs/common';
import { PlacementSyncQueries } from '@ledger/placement';
import type { SqlDatabase } from '@ledger/processing';
import { READ_MODEL_DB } from '../infrastructure/tokens';

/** The reconciler's per-host sync statuses, read from the read-model database (any replica answers). */
export const placementSyncQueriesProvider: Provider = {
  provide: PlacementSyncQueries,
  inject: [READ_MODEL_DB],
  useFactory: (db: SqlDatabase) => new PlacementSyncQueries(db),
};
