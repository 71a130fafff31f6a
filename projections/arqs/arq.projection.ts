import { ARQ_EVENT_TYPES } from '@ledger/allocation';
import type { Projection } from '@ledger/processing';
import { applyArqEvent } from './apply-arq-event';
import { createArqSchema, emptyArqTables } from './arq.schema';
import { enqueueNovaEventsIfResolved } from './nova-outbox';

/**
 * The accelerator requests as /v2/accelerator_requests serves them, plus
 * Nova's outbox. Events apply one at a time: a request's events are few,
 * and "all of this instance's requests are resolved" must be judged after
 * each resolution, whatever the batch boundaries.
 */
export const arqProjection: Projection = {
  name: 'arqs',
  version: 1,
  handles: ARQ_EVENT_TYPES,
  filter: { categories: ['arq'] },
  setup: createArqSchema,
  reset: emptyArqTables,
  async apply(events, tx) {
    const now = Date.now();
    for (const event of events) {
      const changed = await applyArqEvent(tx, event);
      // Only a resolution applied now may notify: a redelivered one was judged when it first applied.
      if (changed && (event.type === 'allocation.ArqBound' || event.type === 'allocation.ArqBindFailed')) await enqueueNovaEventsIfResolved(tx, event, now);
    }
  },
};
