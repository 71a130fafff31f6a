import { Logger } from '@nestjs/common';
import { dataFiles, type LedgerConfig } from '@ledger/config';
import type { EventStore } from '@ledger/eventstore';
import { ReadModelSnapshots, SnapshotFiles } from '@ledger/processing';

/**
 * The data dir's read-model snapshots (data/snapshots), for the as-of reads
 * that restore them and the processors role that takes them. A refused
 * snapshot is logged as an error: its chain hash is not the log's, so the
 * snapshot directory or the store was replaced behind the ledger's back.
 */
export function dataDirSnapshots(config: LedgerConfig, store: Pick<EventStore, 'readAll'>): ReadModelSnapshots {
  const logger = new Logger('Snapshots');
  return new ReadModelSnapshots(store, new SnapshotFiles(dataFiles(config).snapshots), (refused) =>
    logger.error(`snapshot ${refused.file} refused (${refused.reason}): ${refused.detail}; an older snapshot or a replay from position 0 answers instead`),
  );
}
