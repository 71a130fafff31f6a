import { ARQ_EVENT_TYPES } from '@ledger/allocation';
import type { Projection } from '@ledger/processing';
import { applyArqEvent } from './apply-arq-event';
import { createArqSchema, emptyArqTables } from './arq.schema';

/**
 * The accelerator requests as /v2/accelerator_requests serves them. Events
 * apply one at a time: a request's events are few. Nova hears of resolutions
 * from the Nova notifier reactor, not from here: a projection never calls out.
 */
export const arqProjection: Projection = {
  name: 'arqs',
  version: 2,
  handles: ARQ_EVENT_TYPES,
  filter: { categories: ['arq'] },
  setup: createArqSchema,
  reset: emptyArqTables,
  async apply(events, tx) {
    for (const event of events) await applyArqEvent(tx, event);
  },
};
