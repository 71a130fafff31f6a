import { join } from 'node:path';
import type { LedgerConfig } from './ledger-config';

/** Where the embedded setup keeps its files, all under the data directory. */
export const dataFiles = (config: Pick<LedgerConfig, 'dataDir'>) => ({
  events: join(config.dataDir, 'events.sqlite'),
  readModels: join(config.dataDir, 'read-models.sqlite'),
  signingKey: join(config.dataDir, 'credentials', 'signing.key'),
  adminToken: join(config.dataDir, 'credentials', 'admin.token'),
  /** Ed25519 key (PEM) that signs head checkpoints; `ledgerctl audit public-key` prints its public half. */
  checkpointKey: join(config.dataDir, 'credentials', 'checkpoint-signing.key'),
  /** Signed head checkpoints, one JSON line each, beside the store rather than in it (docs/architecture.md). */
  checkpoints: join(config.dataDir, 'checkpoints.jsonl'),
  /** Read-model snapshots for as-of reads, one SQLite image each (docs/audit.md, "Snapshots"). */
  snapshots: join(config.dataDir, 'snapshots'),
});
