import type { RecordedEvent } from '@ledger/eventstore';
import { InventoryEventTypes } from '@ledger/inventory';
import { JOB_EVENT_TYPES } from '@ledger/jobs';
import { type Projection, selectByKeys } from '@ledger/processing';
import { flushJobsBatch } from './flush-jobs-batch';
import { JobsBatch } from './jobs-batch';
import { driverRowFrom, jobRowFrom } from './jobs.rows';
import { createJobsSchema, emptyJobsTables } from './jobs.schema';

/** The driver facts of the host stream this projection reads (the rest of the host stream is the inventory's). */
export const DRIVER_FACT_TYPES = [InventoryEventTypes.DriverInstalled, InventoryEventTypes.DriverUninstalled, InventoryEventTypes.DriverFailed] as const;

/**
 * Jobs by state, host and deadline — what the job API, the agents' long
 * polls, the heartbeat's `jobsWaiting` and the timeout sweeper read — and
 * each host's drivers from the driver facts. A batch reads the rows it
 * touches with a few IN lists, applies its events in memory and writes the
 * rows back with multi-row upserts.
 */
export const jobsProjection: Projection = {
  name: 'jobs',
  version: 1,
  handles: [...JOB_EVENT_TYPES, ...DRIVER_FACT_TYPES],
  filter: { categories: ['job', 'host'] },
  setup: createJobsSchema,
  reset: emptyJobsTables,
  async apply(events, tx) {
    const data = (event: RecordedEvent) => event.data as { jobId: string; hostname?: string };
    const jobs = await selectByKeys<Record<string, unknown>>(tx, 'jobs', 'job_id', events.map((event) => data(event).jobId));
    const hostnames = events.filter((event) => !event.type.startsWith('jobs.')).map((event) => data(event).hostname!);
    const drivers = await selectByKeys<Record<string, unknown>>(tx, 'job_host_drivers', 'hostname', hostnames);
    const batch = new JobsBatch(jobs.map(jobRowFrom), drivers.map(driverRowFrom));
    for (const event of events) batch.apply(event);
    await flushJobsBatch(tx, batch);
  },
};
