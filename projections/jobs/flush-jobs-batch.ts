import { runForRows, type SqlExecutor, upsertRowsSql } from '@ledger/processing';
import type { JobsBatch } from './jobs-batch';
import { DRIVER_COLUMNS, type DriverRow, JOB_COLUMNS, type JobRow } from './jobs.rows';

const UPSERT_JOBS = upsertRowsSql('jobs', JOB_COLUMNS, ['job_id']);
const UPSERT_DRIVERS = upsertRowsSql('job_host_drivers', DRIVER_COLUMNS, ['hostname', 'driver']);

/** Writes every row the batch changed: one multi-row upsert per table and 256 rows. */
export async function flushJobsBatch(tx: SqlExecutor, batch: JobsBatch): Promise<void> {
  const jobs = [...batch.changedJobs].map((jobId) => batch.jobs.get(jobId)!);
  await runForRows(tx, UPSERT_JOBS, jobs.map((row: JobRow) => JOB_COLUMNS.map((column) => row[column])));
  const drivers = [...batch.changedDrivers].map((key) => batch.drivers.get(key)!);
  await runForRows(tx, UPSERT_DRIVERS, drivers.map((row: DriverRow) => DRIVER_COLUMNS.map((column) => row[column])));
}
