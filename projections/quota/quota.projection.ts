import { QUOTA_EVENT_TYPES } from '@ledger/quota';
import type { Projection } from '@ledger/processing';
import { flushQuotaBatch, loadAppliedVersions } from './flush-quota-batch';
import { QuotaBatch } from './quota-batch';
import { createQuotaSchema, emptyQuotaTables } from './quota.schema';

/**
 * Limits, reservations and usage per project, from the quota streams: what
 * the native API's listings and the sweeper of orphaned reservations read.
 * (The command side and GET /api/v1/quotas read the stream itself.) A batch
 * is netted in memory and written with a few multi-row statements; the
 * per-project stream version makes redelivery a no-op.
 */
export const quotaProjection: Projection = {
  name: 'quota',
  version: 1,
  handles: QUOTA_EVENT_TYPES,
  filter: { categories: ['quota'] },
  setup: createQuotaSchema,
  reset: emptyQuotaTables,
  async apply(events, tx) {
    const applied = await loadAppliedVersions(
      tx,
      events.map((event) => (event.data as { project: string }).project),
    );
    const batch = new QuotaBatch(applied);
    for (const event of events) batch.apply(event);
    await flushQuotaBatch(tx, batch);
  },
};
