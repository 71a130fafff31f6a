import { INVENTORY_EVENT_TYPES } from '@ledger/inventory';
import type { FoldStart, ProcessorFold, Projection, SqlExecutor } from '@ledger/processing';
import { createInventorySchema, emptyInventoryTables, INVENTORY_QUERY_ONLY_INDEXES } from './inventory.schema';
import { applyInventoryEvent } from './working-set/apply-inventory-event';
import { collectBatchKeys } from './working-set/batch-keys';
import { flushWorkingSet } from './working-set/flush-working-set';
import { InventoryWorkingSet } from './working-set/inventory-working-set';
import { loadWorkingSet } from './working-set/load-working-set';

/**
 * The inventory read model (hosts, devices, deployables, attach handles and
 * their claims, attributes, what each region and shell holds and the VFs
 * configured) from the host, device and attribute streams. A batch is applied in memory: its rows
 * are read with a few set-based SELECTs, its events applied in order, and
 * the outcome written with multi-row upserts and deletes. Statements per
 * batch instead of per event are what keeps a rebuild fast, above all on
 * PostgreSQL, where each statement is a round trip. A rebuild folds
 * several reads into one working set (`fold`), so a row that many events
 * change is written once per fold rather than once per read. Redelivery is a no-op:
 * host-stream events are guarded by `inv_hosts.stream_version`, device-stream
 * events by `inv_devices.device_version`, attribute-stream events by
 * `inv_attributes.stream_version`. Device health and the agent's lost / back
 * facts land on the device and host rows; heartbeats' telemetry never
 * passes through here (see live-view/).
 */
export const inventoryProjection: Projection = {
  name: 'inventory',
  // 5: devices' clean state (inventory.DeviceClean*).
  // 6: hosts' fence (inv_hosts.fenced_reason, fenced_at).
  // 7: a partition's own handle beside its attach handle (inv_attach_handles.partition_handle).
  version: 7,
  handles: INVENTORY_EVENT_TYPES,
  filter: { categories: ['host', 'device', 'attribute'] },
  queryOnlyIndexes: INVENTORY_QUERY_ONLY_INDEXES,
  setup: createInventorySchema,
  reset: emptyInventoryTables,
  async apply(events, tx) {
    const fold = foldInventory(tx);
    await fold.add(events);
    await fold.flush();
  },
  fold: foldInventory,
};

/**
 * Reads folded into one working set: each adds the rows it needs that the
 * set lacks (none when the tables start empty); the flush writes each
 * changed row once.
 */
function foldInventory(tx: SqlExecutor, start?: FoldStart): ProcessorFold {
  const empty = start?.empty ?? false;
  const set = new InventoryWorkingSet();
  return {
    async add(events) {
      if (!empty) await loadWorkingSet(tx, collectBatchKeys(events), set);
      for (const event of events) applyInventoryEvent(set, event);
    },
    flush: () => flushWorkingSet(tx, set),
  };
}
