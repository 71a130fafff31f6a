import type { Provider } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { PlacementQueries } from '@ledger/projections/placement';
import { READ_MODEL_DB } from '../infrastructure/tokens';

/** Queries over the placement read model (the desired state), on the read-model database. */
export const placementQueriesProvider: Provider = {
  provide: PlacementQueries,
  inject: [READ_MODEL_DB],
  useFactory: (db: SqlDatabase) => new PlacementQueries(db),
};
