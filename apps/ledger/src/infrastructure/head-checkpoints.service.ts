import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { dataFiles, type LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore, HeadCheckpointer, loadOrCreateCheckpointKeys } from '@ledger/eventstore';
import { LEDGER_CONFIG } from './tokens';

/**
 * The conductor's signer of head checkpoints: every LEDGER_CHECKPOINT_SECONDS
 * and on shutdown, when the head moved, it signs (position, chain hash, time)
 * and appends it to data/checkpoints.jsonl and the published copy.
 */
@Injectable()
export class HeadCheckpointsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('HeadCheckpoints');
  private checkpointer: HeadCheckpointer | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  onApplicationBootstrap(): void {
    const files = dataFiles(this.config);
    this.checkpointer = new HeadCheckpointer({
      store: this.store,
      keys: loadOrCreateCheckpointKeys(files.checkpointKey),
      file: files.checkpoints,
      publishFile: this.config.checkpointPublishFile,
      clock: () => new Date(),
    });
    this.timer = setInterval(() => void this.sign(), this.config.checkpointSeconds * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sign();
  }

  /** One signing at a time: a slow disk must not let two interleave and append the same head twice. */
  private sign(): Promise<unknown> {
    this.running = this.running.then(async () => {
      try {
        const signed = await this.checkpointer?.checkpoint();
        if (signed) this.logger.debug(`signed head checkpoint at position ${signed.position}`);
      } catch (error) {
        this.logger.error(`could not sign the head checkpoint: ${(error as Error).message}`);
      }
    });
    return this.running;
  }
}
