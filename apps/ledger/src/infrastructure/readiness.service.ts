import { Inject, Injectable, Optional } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import type { ProcessorRuntime, SqlDatabase } from '@ledger/processing';
import { PROCESSOR_RUNTIME, READ_MODEL_DB } from './tokens';

export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: Record<string, { ok: boolean; detail?: string }>;
  readonly headPosition?: number;
  readonly processors?: unknown;
}

/** Ready = the event store and read models answer, and no processor has failed. */
@Injectable()
export class ReadinessService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODEL_DB) private readonly readModels: SqlDatabase,
    @Optional() @Inject(PROCESSOR_RUNTIME) private readonly runtime?: ProcessorRuntime,
  ) {}

  async check(): Promise<ReadinessReport> {
    const checks: ReadinessReport['checks'] = {};
    let headPosition: number | undefined;
    try {
      headPosition = await this.store.headPosition();
      checks.eventStore = { ok: true };
    } catch (error) {
      checks.eventStore = { ok: false, detail: (error as Error).message };
    }
    try {
      await this.readModels.get('SELECT 1 AS one');
      checks.readModels = { ok: true };
    } catch (error) {
      checks.readModels = { ok: false, detail: (error as Error).message };
    }
    const processors = await this.runtime?.status();
    if (processors) {
      const failed = processors.filter((processor) => processor.state === 'failed').map((processor) => processor.name);
      checks.processors = failed.length === 0 ? { ok: true } : { ok: false, detail: `failed: ${failed.join(', ')}` };
    }
    return { ready: Object.values(checks).every((check) => check.ok), checks, headPosition, processors };
  }
}
