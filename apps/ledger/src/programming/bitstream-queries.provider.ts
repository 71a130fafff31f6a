import type { Provider } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { BitstreamQueries } from '@ledger/projections/bitstreams';
import { READ_MODEL_DB } from '../infrastructure/tokens';

export const bitstreamQueriesProvider: Provider = {
  provide: BitstreamQueries,
  inject: [READ_MODEL_DB],
  useFactory: (db: SqlDatabase) => new BitstreamQueries(db),
};
