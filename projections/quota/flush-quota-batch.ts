import { runForRows, type SqlExecutor } from '@ledger/processing';
import { canonicalJson } from '@ledger/kernel';
import type { QuotaBatch } from './quota-batch';

/** Loads the stream version applied so far for every project the batch touches. */
export async function loadAppliedVersions(tx: SqlExecutor, projects: Iterable<string>): Promise<Map<string, number>> {
  const versions = new Map<string, number>();
  const list = [...new Set(projects)];
  for (let start = 0; start < list.length; start += 256) {
    const chunk = list.slice(start, start + 256);
    const placeholders = chunk.map((_, index) => `$${index + 1}`).join(', ');
    const rows = await tx.all<{ project: string; stream_version: number | string }>(
      `SELECT project, stream_version FROM quota_projects WHERE project IN (${placeholders})`,
      chunk,
    );
    for (const row of rows) versions.set(row.project, Number(row.stream_version));
  }
  return versions;
}

/** Writes the batch's net changes: a handful of multi-row statements however many events it held. */
export async function flushQuotaBatch(tx: SqlExecutor, batch: QuotaBatch): Promise<void> {
  const limits = [...batch.limits.values()];
  await runForRows(
    tx,
    'DELETE FROM quota_limits WHERE (project, resource) IN (VALUES $VALUES)',
    limits.filter((entry) => entry.limit === null).map((entry) => [entry.project, entry.resource]),
  );
  await runForRows(
    tx,
    'INSERT INTO quota_limits (project, resource, limit_value) VALUES $VALUES ON CONFLICT (project, resource) DO UPDATE SET limit_value = excluded.limit_value',
    limits.filter((entry) => entry.limit !== null).map((entry) => [entry.project, entry.resource, entry.limit]),
  );

  const reservations = [...batch.reservations.values()];
  await runForRows(
    tx,
    'DELETE FROM quota_reservations WHERE (project, consumer_id) IN (VALUES $VALUES)',
    reservations.filter((entry) => entry.row === null).map((entry) => [entry.project, entry.consumerId]),
  );
  await runForRows(
    tx,
    `INSERT INTO quota_reservations (project, consumer_id, resources, reserved_at) VALUES $VALUES
     ON CONFLICT (project, consumer_id) DO UPDATE SET resources = excluded.resources, reserved_at = excluded.reserved_at`,
    reservations.flatMap(({ row }) => (row ? [[row.project, row.consumerId, canonicalJson(row.resources), row.reservedAt]] : [])),
  );

  const usage = [...batch.usage.values()].filter((entry) => entry.delta !== 0);
  await runForRows(
    tx,
    'INSERT INTO quota_usage (project, resource, used) VALUES $VALUES ON CONFLICT (project, resource) DO UPDATE SET used = quota_usage.used + excluded.used',
    usage.map((entry) => [entry.project, entry.resource, entry.delta]),
  );
  await runForRows(
    tx,
    'DELETE FROM quota_usage WHERE used <= 0 AND (project, resource) IN (VALUES $VALUES)',
    usage.filter((entry) => entry.delta < 0).map((entry) => [entry.project, entry.resource]),
  );

  await runForRows(
    tx,
    'INSERT INTO quota_projects (project, stream_version) VALUES $VALUES ON CONFLICT (project) DO UPDATE SET stream_version = excluded.stream_version',
    [...batch.versions].map(([project, version]) => [project, version]),
  );
}
