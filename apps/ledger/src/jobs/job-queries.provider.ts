import type { Provider } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { JobQueries } from '@ledger/projections/jobs';
import { READ_MODEL_DB } from '../infrastructure/tokens';

/** Queries over the jobs read model (the long poll, the job API, the sweeper, and heartbeats' `jobsWaiting`). */
export const jobQueriesProvider: Provider = {
  provide: JobQueries,
  inject: [READ_MODEL_DB],
  useFactory: (db: SqlDatabase) => new JobQueries(db),
};
