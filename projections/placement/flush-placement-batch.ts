import { runForRows, type SqlExecutor, upsertRowsSql } from '@ledger/processing';
import type { PlacementBatch } from './placement-batch';
import { DEPLOYABLE_COLUMNS, DEVICE_COLUMNS, HOST_COLUMNS, PROGRAM_JOB_COLUMNS } from './placement.rows';

const UPSERT_HOSTS = upsertRowsSql('pl_hosts', HOST_COLUMNS, ['hostname']);
const UPSERT_DEVICES = upsertRowsSql('pl_devices', DEVICE_COLUMNS, ['device_uuid']);
const UPSERT_DEPLOYABLES = upsertRowsSql('pl_deployables', DEPLOYABLE_COLUMNS, ['deployable_uuid']);
const UPSERT_PROGRAM_JOBS = upsertRowsSql('pl_program_jobs', PROGRAM_JOB_COLUMNS, ['job_id']);
const DELETE_DEPLOYABLES = 'DELETE FROM pl_deployables WHERE deployable_uuid IN (VALUES $VALUES)';

/** Writes what the batch changed: deletions first, then one multi-row upsert per table and 256 rows. */
export async function flushPlacementBatch(tx: SqlExecutor, batch: PlacementBatch): Promise<void> {
  const rowsOf = <Row>(keys: Set<string>, rows: Map<string, Row>, columns: readonly (keyof Row)[]) =>
    [...keys].map((key) => columns.map((column) => rows.get(key)![column]));
  await runForRows(tx, DELETE_DEPLOYABLES, [...batch.deletedDeployables].map((uuid) => [uuid]));
  await runForRows(tx, UPSERT_HOSTS, rowsOf(batch.changedHosts, batch.hosts, HOST_COLUMNS));
  await runForRows(tx, UPSERT_DEVICES, rowsOf(batch.changedDevices, batch.devices, DEVICE_COLUMNS));
  await runForRows(tx, UPSERT_DEPLOYABLES, rowsOf(batch.changedDeployables, batch.deployables, DEPLOYABLE_COLUMNS));
  await runForRows(tx, UPSERT_PROGRAM_JOBS, rowsOf(batch.changedJobs, batch.jobs, PROGRAM_JOB_COLUMNS));
}
