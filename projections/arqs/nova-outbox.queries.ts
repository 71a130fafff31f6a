import type { SqlDatabase } from '@ledger/processing';

export interface NovaOutboxEntry {
  readonly id: string;
  readonly instanceUuid: string;
  readonly arqUuid: string;
  readonly status: 'completed' | 'failed';
  readonly attempts: number;
}

/** The notifier's side of Nova's outbox: take what is due, then remove it or try later. */
export class NovaOutbox {
  constructor(private readonly db: SqlDatabase) {}

  async due(now: string, limit = 100): Promise<NovaOutboxEntry[]> {
    const rows = await this.db.all<{ id: string; instance_uuid: string; arq_uuid: string; status: 'completed' | 'failed'; attempts: number | string }>(
      // The limit is written into the SQL: SQLite re-prepares a statement with a bound LIMIT on every run.
      `SELECT id, instance_uuid, arq_uuid, status, attempts FROM arq_nova_outbox WHERE next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT ${Math.trunc(limit)}`,
      [now],
    );
    return rows.map((row) => ({ id: row.id, instanceUuid: row.instance_uuid, arqUuid: row.arq_uuid, status: row.status, attempts: Number(row.attempts) }));
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const id of ids) await tx.run('DELETE FROM arq_nova_outbox WHERE id = $1', [id]);
    });
  }

  async retryLater(ids: readonly string[], nextAttemptAt: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const id of ids) await tx.run('UPDATE arq_nova_outbox SET attempts = attempts + 1, next_attempt_at = $2 WHERE id = $1', [id, nextAttemptAt]);
    });
  }

  /** The earliest retry time, if anything waits. */
  async nextAttemptAt(): Promise<string | undefined> {
    const row = await this.db.get<{ at: string | null }>('SELECT MIN(next_attempt_at) AS at FROM arq_nova_outbox');
    return row?.at ?? undefined;
  }
}
