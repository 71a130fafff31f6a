import { Inject, Injectable, Optional } from '@nestjs/common';
import { LedgerError, ValidationError } from '@ledger/kernel';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { type ProcessorRuntime, readCheckpoint, type SqlDatabase } from '@ledger/processing';
import { LEDGER_PROCESSORS } from '../infrastructure/processors.module';
import { PROCESSOR_RUNTIME, READ_MODEL_DB } from '../infrastructure/tokens';

/** Request header: serve this read only once the projections have processed this global position. */
export const MIN_POSITION_HEADER = 'x-ledger-min-position';

const WAIT_MS = 5000;
const POLL_MS = 25;

/**
 * Read-your-writes across the command/query split: a command answers with
 * the position it appended at; a reader that passes it back waits (up to
 * 5 s) until the projections have caught up. In-process processors are
 * awaited directly; an API-only replica polls the shared checkpoints.
 */
@Injectable()
export class ConsistencyService {
  constructor(
    @Inject(READ_MODEL_DB) private readonly db: SqlDatabase,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() @Inject(PROCESSOR_RUNTIME) private readonly runtime?: ProcessorRuntime,
  ) {}

  async awaitHeader(header: string | undefined): Promise<void> {
    if (header === undefined || header === '') return;
    if (!/^\d{1,15}$/.test(header)) {
      throw new ValidationError('REQUEST.INVALID', `${MIN_POSITION_HEADER} must be a non-negative integer`, { header });
    }
    await this.awaitPosition(Number(header));
  }

  /**
   * Serves a read only from projections that include everything recorded
   * before the request arrived. Nova and the `openstack` client read right
   * after they write (create then show, bind then poll `?instance=`) and
   * send no position, so the Cyborg API reads this way. `projections` names
   * the read models the read uses (all when absent): a GET of requests does
   * not wait for the device history. Costs one head lookup when they are
   * caught up.
   */
  async awaitFresh(projections?: readonly string[]): Promise<void> {
    await this.awaitPosition(await this.store.headPosition(), projections);
  }

  async awaitPosition(position: number, projections?: readonly string[]): Promise<void> {
    if (this.runtime) {
      await this.runtime.waitForPosition(position, { timeoutMs: WAIT_MS, processors: projections }).catch(() => {
        throw notCaughtUp(position);
      });
      return;
    }
    const deadline = Date.now() + WAIT_MS;
    while (!(await this.checkpointsReach(position, projections))) {
      if (Date.now() >= deadline) throw notCaughtUp(position);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async checkpointsReach(position: number, projections: readonly string[] | undefined): Promise<boolean> {
    for (const processor of LEDGER_PROCESSORS) {
      if (projections && !projections.includes(processor.name)) continue;
      const checkpoint = await readCheckpoint(this.db, processor.name);
      if (!checkpoint || checkpoint.position < position) return false;
    }
    return true;
  }
}

const notCaughtUp = (position: number) =>
  new LedgerError('CONSISTENCY.NOT_CAUGHT_UP', 503, `the projections did not reach position ${position} within ${WAIT_MS / 1000} s; retry`, {
    position,
  });
