import type { RecordedEvent } from '@ledger/eventstore';
import {
  type AttributeCreated,
  type AttributeDeleted,
  attributeUuidOf,
  type DeployableDescription,
  discoveredAttributesOf,
  numericIdOf,
} from '@ledger/inventory';
import type { InventoryWorkingSet } from './inventory-working-set';

/**
 * The deployable's discovered attributes (`rc`, `trait0…N`) as the report
 * now gives them: new keys are inserted, changed values update
 * `updated_at`, keys no longer given are deleted. Operator attributes of the
 * deployable are left alone.
 */
export function syncDiscoveredAttributes(set: InventoryWorkingSet, deployable: DeployableDescription, at: string): void {
  const wanted = new Map(discoveredAttributesOf(deployable).map((entry) => [attributeUuidOf(deployable.uuid, entry.key), entry]));
  for (const uuid of set.attributes.keysIn(deployable.uuid)) {
    if (set.attributes.get(uuid)!.origin === 'discovered' && !wanted.has(uuid)) set.attributes.delete(uuid);
  }
  let deployableId: number | undefined;
  for (const [uuid, { key, value }] of wanted) {
    const existing = set.attributes.get(uuid);
    if (existing?.value === value) continue;
    set.attributes.put(
      existing !== undefined
        ? { ...existing, value, updated_at: at }
        : {
            uuid,
            deployable_uuid: deployable.uuid,
            deployable_id: (deployableId ??= numericIdOf(deployable.uuid)),
            key,
            value,
            origin: 'discovered',
            stream_version: 0,
            deleted: 0,
            created_at: at,
            updated_at: at,
          },
    );
  }
}

/** A deployable is gone: its discovered attributes go too; an operator's stay for when it comes back. */
export function deleteDiscoveredAttributes(set: InventoryWorkingSet, deployableUuid: string): void {
  for (const uuid of set.attributes.keysIn(deployableUuid)) {
    if (set.attributes.get(uuid)!.origin === 'discovered') set.attributes.delete(uuid);
  }
}

/** An operator's attribute, guarded by its stream version (a redelivered create after the delete changes nothing). */
export function createAttribute(set: InventoryWorkingSet, { data }: AttributeCreated, event: RecordedEvent): void {
  const existing = set.attributes.get(data.uuid);
  if (existing !== undefined && existing.stream_version >= event.version) return;
  set.attributes.put({
    uuid: data.uuid,
    deployable_uuid: data.deployableUuid,
    deployable_id: numericIdOf(data.deployableUuid),
    key: data.key,
    value: data.value,
    origin: 'operator',
    stream_version: event.version,
    deleted: 0,
    created_at: data.createdAt,
    updated_at: data.createdAt,
  });
}

/** The row stays as a tombstone that remembers the stream version. */
export function deleteAttribute(set: InventoryWorkingSet, { data }: AttributeDeleted, event: RecordedEvent): void {
  const existing = set.attributes.get(data.uuid);
  if (existing === undefined || existing.stream_version >= event.version) return;
  set.attributes.put({ ...existing, deleted: 1, stream_version: event.version, updated_at: event.recordedAt });
}
