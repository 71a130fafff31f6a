import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { dataFiles, type LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore, HeadCheckpointer, type LogCut, loadOrCreateCheckpointKeys, readCheckpointLines, type SignedRollbackAcceptance } from '@ledger/eventstore';
import { isLedgerError } from '@ledger/kernel';
import type { MessagePublisher } from '@ledger/messaging';
import { CheckpointRelay } from '../messaging/checkpoint-relay';
import { MESSAGE_PUBLISHER } from '../messaging/message-publisher.provider';
import { LEDGER_CONFIG } from './tokens';

/**
 * The conductor's signer of head checkpoints: every LEDGER_CHECKPOINT_SECONDS
 * and on shutdown, when the head moved, it signs (position, chain hash, time)
 * and appends it to data/checkpoints.jsonl and the published copy, and
 * publishes it to Kafka when LEDGER_KAFKA_BROKERS is set. On a store cut
 * below the signed head it signs nothing, logs why, and tells /readyz
 * (`cut`) until an operator accepts the rollback; that acceptance goes to
 * Kafka too, once per process, when a tick first finds the store in it.
 */
@Injectable()
export class HeadCheckpointsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('HeadCheckpoints');
  private checkpointer: HeadCheckpointer | undefined;
  private relay: CheckpointRelay | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  /** The signatures of the acceptances this process has handed to the relay. */
  private readonly relayedAcceptances = new Set<string>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(MESSAGE_PUBLISHER) private readonly publisher: MessagePublisher | null,
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
    if (this.publisher) this.relay = new CheckpointRelay(this.publisher, this.config.kafka.topicPrefix, readCheckpointLines(files.checkpoints).at(-1));
    this.timer = setInterval(() => void this.sign(), this.config.checkpointSeconds * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sign();
  }

  /** The cut the store is in (accepted or not), or undefined: for /readyz. */
  async cut(): Promise<LogCut | undefined> {
    return this.checkpointer?.cut();
  }

  /** One signing at a time: a slow disk must not let two interleave and append the same head twice. */
  private sign(): Promise<unknown> {
    this.running = this.running.then(async () => {
      try {
        const accepted = this.relay ? await this.acceptanceToRelay() : undefined;
        const signed = await this.checkpointer?.checkpoint();
        if (signed) this.logger.debug(`signed head checkpoint at position ${signed.position}`);
        await this.relay?.relay(signed, accepted).catch((error: Error) => this.logger.warn(`head checkpoints not yet on Kafka (sent again with the next): ${error.message}`));
      } catch (error) {
        const code = isLedgerError(error) ? `${error.code}: ` : '';
        this.logger.error(`could not sign the head checkpoint: ${code}${(error as Error).message}`);
      }
    });
    return this.running;
  }

  /** The accepted rollback the store is in, the first time a tick finds it. */
  private async acceptanceToRelay(): Promise<SignedRollbackAcceptance | undefined> {
    const accepted = (await this.checkpointer?.cut())?.accepted;
    if (!accepted || this.relayedAcceptances.has(accepted.signature)) return undefined;
    this.relayedAcceptances.add(accepted.signature);
    return accepted;
  }
}
