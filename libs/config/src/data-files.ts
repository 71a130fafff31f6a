import { join } from 'node:path';
import type { LedgerConfig } from './ledger-config';

/** Where the embedded setup keeps its files, all under the data directory. */
export const dataFiles = (config: Pick<LedgerConfig, 'dataDir'>) => ({
  events: join(config.dataDir, 'events.sqlite'),
  readModels: join(config.dataDir, 'read-models.sqlite'),
  signingKey: join(config.dataDir, 'credentials', 'signing.key'),
  adminToken: join(config.dataDir, 'credentials', 'admin.token'),
});
