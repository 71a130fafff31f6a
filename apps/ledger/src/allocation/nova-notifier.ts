import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import type { ProcessorRuntime, SqlDatabase } from '@ledger/processing';
import { arqProjection, NOVA_EVENT_HORIZON_MS, NovaOutbox, type NovaOutboxEntry } from '@ledger/projections/arqs';
import { LEDGER_CONFIG, PROCESSOR_RUNTIME, READ_MODEL_DB } from '../infrastructure/tokens';

const MAX_BACKOFF_MS = 60_000;
const BATCH = 100;

/**
 * Drains Nova's outbox (written by the arqs projection together with the
 * request states): posts `accelerator-request-bound` to Nova's
 * os-server-external-events at compute microversion 2.82, as Cyborg does
 * (CYBORG-V2.md §7). Runs after every committed batch and on a retry timer.
 * Delivery is at least once: Nova ignores an event nobody waits for. With
 * several ledger processes, the one holding the arqs projection's lease drains.
 */
@Injectable()
export class NovaNotifier implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('NovaNotifier');
  private readonly outbox: NovaOutbox;
  private unsubscribe: (() => void) | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(READ_MODEL_DB) db: SqlDatabase,
    @Inject(PROCESSOR_RUNTIME) private readonly runtime: ProcessorRuntime,
  ) {
    this.outbox = new NovaOutbox(db);
  }

  onApplicationBootstrap(): void {
    if (!this.config.novaUrl) this.logger.warn('LEDGER_NOVA_URL is not set: Nova will not be told when binds finish (it falls back to polling)');
    // Progress is also signalled once each processor has prepared its tables, which covers
    // entries left from before a restart without querying a table that may not exist yet.
    this.unsubscribe = this.runtime.onProgress(() => this.kick());
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    await this.draining;
  }

  /** Starts a drain, or asks the running one to go again. */
  private kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((error: unknown) => this.logger.error(`outbox drain failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        } else void this.scheduleRetry();
      });
  }

  private async drain(): Promise<void> {
    // The outbox is the arqs projection's table: only the instance running that projection drains it, once it exists.
    if (!this.runtime.isPrepared(arqProjection.name)) return;
    for (;;) {
      const due = await this.outbox.due(new Date().toISOString(), BATCH);
      if (due.length === 0 || this.stopped) return;
      // After a failed delivery, the retry timer (not this loop) tries again.
      if ((await this.deliver(due)) === 'retry-later') return;
    }
  }

  private async deliver(entries: NovaOutboxEntry[]): Promise<'done' | 'retry-later'> {
    if (!this.config.novaUrl) {
      await this.outbox.remove(entries.map((entry) => entry.id));
      return 'done';
    }
    const events = entries.map((entry) => ({ name: 'accelerator-request-bound', server_uuid: entry.instanceUuid, tag: entry.arqUuid, status: entry.status }));
    let status: number;
    let body: unknown;
    try {
      const response = await fetch(`${this.config.novaUrl}/os-server-external-events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-openstack-nova-api-version': '2.82',
          'openstack-api-version': 'compute 2.82',
          ...(this.config.novaToken ? { 'x-auth-token': this.config.novaToken } : {}),
        },
        body: JSON.stringify({ events }),
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      body = await response.json().catch(() => undefined);
    } catch (error) {
      return this.retryLater(entries, `Nova unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (status === 200 || status === 207) {
      // 207 with 422 per event: the instance is not on a host yet (Nova LP#1855752); Nova polls, so it is done.
      if (status === 207) this.logPartial(body);
      await this.outbox.remove(entries.map((entry) => entry.id));
      return 'done';
    }
    if (status >= 500 || status === 429 || status === 401 || status === 403) return this.retryLater(entries, `Nova answered ${status}`);
    this.logger.error(`Nova refused ${entries.length} accelerator-request-bound event(s) with ${status}; dropped: ${JSON.stringify(body)}`);
    await this.outbox.remove(entries.map((entry) => entry.id));
    return 'done';
  }

  private async retryLater(entries: NovaOutboxEntry[], why: string): Promise<'retry-later'> {
    const attempts = Math.max(...entries.map((entry) => entry.attempts)) + 1;
    const expired = entries.filter((entry) => entry.attempts * MAX_BACKOFF_MS > NOVA_EVENT_HORIZON_MS);
    if (expired.length > 0) {
      this.logger.error(`giving up on ${expired.length} accelerator-request-bound event(s) after ${attempts} attempts: ${why}`);
      await this.outbox.remove(expired.map((entry) => entry.id));
    }
    const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(attempts, 10));
    this.logger.warn(`${why}; retrying ${entries.length - expired.length} event(s) in ${delay} ms`);
    const pending = entries.filter((entry) => !expired.includes(entry)).map((entry) => entry.id);
    await this.outbox.retryLater(pending, new Date(Date.now() + delay).toISOString());
    return 'retry-later';
  }

  private logPartial(body: unknown): void {
    const events = (body as { events?: { code?: number; tag?: string }[] } | undefined)?.events ?? [];
    const refused = events.filter((event) => event.code !== 200 && event.code !== 422);
    if (refused.length > 0) this.logger.warn(`Nova refused some accelerator-request-bound events: ${JSON.stringify(refused)}`);
  }

  private async scheduleRetry(): Promise<void> {
    if (this.stopped) return;
    const next = await this.outbox.nextAttemptAt().catch(() => undefined);
    clearTimeout(this.timer);
    if (next === undefined) return;
    this.timer = setTimeout(() => this.kick(), Math.max(0, Date.parse(next) - Date.now()));
    this.timer.unref();
  }
}
