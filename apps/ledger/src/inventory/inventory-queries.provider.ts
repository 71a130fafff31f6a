import type { Provider } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { InventoryQueries } from '@ledger/projections/inventory';
import { READ_MODEL_DB } from '../infrastructure/tokens';

/** Queries over the inventory read model, on the read-model database. */
export const inventoryQueriesProvider: Provider = {
  provide: InventoryQueries,
  inject: [READ_MODEL_DB],
  useFactory: (db: SqlDatabase) => new InventoryQueries(db),
};
