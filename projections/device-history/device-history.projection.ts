import { ARQ_EVENT_TYPES } from '@ledger/allocation';
import type { Projection } from '@ledger/processing';
import { applyDeviceHistoryEvent } from './apply-device-history-event';
import { TIMELINE_EVENT_TYPES } from './device-event-summary';
import { createDeviceHistorySchema, emptyDeviceHistoryTables } from './device-history.schema';

/**
 * The auditor's read model of devices: tenancies (who held which device,
 * attach handle and region, when, under which profile, bitstream and
 * project) and every device's timeline. A projection rather than a replay,
 * so "who held it" over a long log is an index lookup (docs/audit.md).
 */
export const deviceHistoryProjection: Projection = {
  name: 'device-history',
  // 4: partitions in the timeline (carves, destroys, idle periods, reclaims) and claims naming their partition.
  version: 4,
  handles: [...new Set([...ARQ_EVENT_TYPES, ...TIMELINE_EVENT_TYPES])],
  filter: { categories: ['arq', 'host', 'device'] },
  setup: createDeviceHistorySchema,
  reset: emptyDeviceHistoryTables,
  async apply(events, tx) {
    for (const event of events) await applyDeviceHistoryEvent(tx, event);
  },
};
