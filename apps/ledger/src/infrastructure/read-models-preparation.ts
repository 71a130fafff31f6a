import { LedgerError } from '@ledger/kernel';
import { ensureProcessingTables, type SqlExecutor } from '@ledger/processing';
import { REPLAYABLE_PROJECTIONS } from '@ledger/projections/catalog';

/** While the read models are missing, how often a request may look again (one small query). */
const RECHECK_MS = 500;

export const readModelsNotPrepared = (missing: readonly string[]) =>
  new LedgerError(
    'READ_MODELS.NOT_PREPARED',
    503,
    `no processors replica has prepared the read models yet (${missing.join(', ')}); retry once one runs (LEDGER_ROLES=processors)`,
    { missing },
  );

/**
 * Whether a processors replica has prepared every read model at the version
 * this build expects. An API replica (`api,conductor`) may start before any
 * processors replica: it then answers 503 READ_MODELS.NOT_PREPARED and
 * reports itself unready, instead of failing on tables that do not exist
 * yet. Once everything is prepared it stays so for the life of the process
 * (read models are never dropped under a running replica), so the check
 * costs nothing from then on.
 */
export class ReadModelsPreparation {
  private prepared = false;
  private checkpointTable?: Promise<void>;
  private lastCheck?: { readonly at: number; readonly missing: readonly string[] };

  constructor(
    private readonly db: SqlExecutor,
    private readonly now: () => number = Date.now,
  ) {}

  /** True once every read model was found prepared (it stays so). */
  isPrepared(): boolean {
    return this.prepared;
  }

  /** Names of read models not prepared yet; empty when all are. */
  async missing(): Promise<readonly string[]> {
    if (this.prepared) return [];
    const now = this.now();
    if (this.lastCheck && now - this.lastCheck.at < RECHECK_MS) return this.lastCheck.missing;
    // The checkpoint table is the machinery's, made by whoever comes first: a missing table is then never mistaken for an outage.
    this.checkpointTable ??= ensureProcessingTables(this.db);
    await this.checkpointTable;
    const stored = await this.db.all<{ name: string; version: number }>('SELECT name, version FROM processor_checkpoints');
    const versions = new Map(stored.map((row) => [row.name, Number(row.version)]));
    const missing = [...REPLAYABLE_PROJECTIONS.values()].filter((processor) => versions.get(processor.name) !== processor.version).map((processor) => processor.name);
    this.prepared = missing.length === 0;
    this.lastCheck = { at: now, missing };
    return missing;
  }

  /** Throws READ_MODELS.NOT_PREPARED (503) until every read model is prepared. */
  async ensurePrepared(): Promise<void> {
    const missing = await this.missing();
    if (missing.length > 0) throw readModelsNotPrepared(missing);
  }
}

/** Set in a process that serves the API without running the processors; absent (null) otherwise. */
export const READ_MODELS_PREPARATION = Symbol('READ_MODELS_PREPARATION');

/** Where requests need the read models: the APIs, but not their OpenAPI documents (nor health, docs, version discovery). */
const NEEDS_READ_MODELS = /^\/(?:api\/|v2\/|graphql)(?!v1\/openapi\.json|openapi\.json)/;

/**
 * A Fastify onRequest hook: 503 READ_MODELS.NOT_PREPARED for what needs the
 * read models, until they are prepared. In callback form, and answered at
 * once once they are: it runs before every request (every agent's
 * heartbeat), where an async hook costs a few promises each time.
 */
export function waitForReadModels(preparation: ReadModelsPreparation) {
  return (request: { url: string }, _reply: unknown, done: (error?: Error) => void): void => {
    if (preparation.isPrepared() || !NEEDS_READ_MODELS.test(request.url)) return done();
    preparation.ensurePrepared().then(() => done(), done);
  };
}
