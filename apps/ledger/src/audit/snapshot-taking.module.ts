import { type BeforeApplicationShutdown, type DynamicModule, Inject, Injectable, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { type SnapshotFile, SnapshotTaker } from '@ledger/processing';
import { LEDGER_CONFIG } from '../infrastructure/tokens';
import { AS_OF_PROJECTIONS } from './as-of-views';
import { dataDirSnapshots } from './read-model-snapshots';

/** How often the taker looks whether a snapshot is due (cheap: the head's position). */
const LOOK_EVERY_MS = 5_000;

/**
 * The processors role's snapshot taker: every LEDGER_SNAPSHOT_EVERY_EVENTS
 * of the log and every LEDGER_SNAPSHOT_EVERY_MINUTES, the read models that
 * answer `asOf` are written to data/snapshots (docs/audit.md, "Snapshots"),
 * keeping the newest LEDGER_SNAPSHOT_KEEP of each (0: all). Both intervals
 * 0: nothing is taken.
 */
@Injectable()
class SnapshotTaking implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Snapshots');
  private taker: SnapshotTaker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  onApplicationBootstrap(): void {
    const { snapshotEveryEvents: everyEvents, snapshotEveryMinutes, snapshotKeep: keep } = this.config;
    if (everyEvents === 0 && snapshotEveryMinutes === 0) return;
    const snapshots = dataDirSnapshots(this.config, this.store);
    const onPruned = (file: SnapshotFile) => this.logger.log(`deleted the snapshot of ${file.projection} v${file.version} at position ${file.position} (LEDGER_SNAPSHOT_KEEP=${keep})`);
    this.taker = new SnapshotTaker({ store: this.store, snapshots, processors: AS_OF_PROJECTIONS, everyEvents, everyMs: snapshotEveryMinutes * 60_000, keep, onPruned });
    this.timer = setInterval(() => void this.takeDue(), LOOK_EVERY_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.taker?.close();
  }

  /** One round at a time: a round that takes longer than the interval is not overlapped. */
  private takeDue(): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        for (const file of (await this.taker?.takeDue()) ?? []) this.logger.debug(`snapshot of ${file.projection} at position ${file.position}`);
      } catch (error) {
        this.logger.error(`could not take read-model snapshots (tried again in ${LOOK_EVERY_MS / 1000} s): ${(error as Error).message}`);
      }
    });
    return this.running;
  }
}

@Module({})
export class SnapshotTakingModule {
  static forRoot(): DynamicModule {
    return { module: SnapshotTakingModule, providers: [SnapshotTaking] };
  }
}
