import { type AttachHandleClaim, type DeviceChanged, type DeviceDiscovered, type DeviceHealthChangedDataV1, type DeviceJobRequester, type RegionProgrammed, upcastDeviceHealthChanged } from '@ledger/inventory';
import type { ArqBindStarted, ArqCreated } from '@ledger/allocation';
import type { RecordedEvent } from '@ledger/eventstore';
import type { SqlExecutor } from '@ledger/processing';
import { canonicalJson } from '@ledger/kernel';
import { summarizeDeviceEvent } from './device-event-summary';

interface ArqFacts {
  project_id: string;
  device_uuid: string | null;
}

const ARQ_TYPES = new Set(['allocation.ArqBindStarted', 'allocation.ArqBound', 'allocation.ArqBindFailed', 'allocation.ArqUnbound', 'allocation.ArqDeleted']);

/**
 * Applies one event: keeps the lookups (request → project, profile,
 * instance; region → bitstream), opens a tenancy on a claim and closes it
 * on the release, and adds the event to the timeline of the device it
 * touches. Every write is keyed or guarded by position, so a redelivered
 * event changes nothing.
 */
export async function applyDeviceHistoryEvent(tx: SqlExecutor, event: RecordedEvent): Promise<void> {
  const data = event.data as Record<string, unknown>;
  switch (event.type) {
    case 'allocation.ArqCreated': {
      const d = data as ArqCreated['data'];
      await tx.run(
        `INSERT INTO dh_arqs (arq_uuid, project_id, device_profile_uuid, device_profile_name, resource_class) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (arq_uuid) DO NOTHING`,
        [d.uuid, d.projectId, d.deviceProfileUuid, d.deviceProfileName, d.resourceClass],
      );
      return;
    }
    case 'allocation.ArqBindStarted': {
      const d = data as ArqBindStarted['data'];
      await tx.run('UPDATE dh_arqs SET instance_uuid = $2, device_uuid = $3 WHERE arq_uuid = $1', [d.uuid, d.instanceUuid, d.deviceUuid]);
      break;
    }
    case 'inventory.AttachHandleClaimed':
      await openTenancy(tx, event, data as unknown as AttachHandleClaim);
      break;
    case 'inventory.AttachHandleReleased': {
      const d = data as unknown as AttachHandleClaim;
      await tx.run(
        `UPDATE dh_tenancies SET to_position = $4, to_time = $5
         WHERE attach_handle_uuid = $1 AND arq_uuid = $2 AND device_uuid = $3 AND to_position IS NULL AND from_position < $4`,
        [d.handleUuid, d.arqUuid, d.deviceUuid, event.position, event.recordedAt],
      );
      break;
    }
    case 'inventory.RegionProgrammed':
      await recordRegionContent(tx, event as RecordedEvent<string, RegionProgrammed['data']>);
      break;
    case 'inventory.DeviceDiscovered': {
      const { device } = data as DeviceDiscovered['data'];
      await recordDeviceMemory(tx, device.uuid, device.capacity, event.position);
      break;
    }
    case 'inventory.DeviceChanged': {
      const d = data as DeviceChanged['data'];
      await recordDeviceMemory(tx, d.deviceUuid, d.description.capacity, event.position);
      break;
    }
    case 'inventory.DeviceHealthChanged': {
      const d = upcastDeviceHealthChanged(data as unknown as DeviceHealthChangedDataV1);
      await tx.run(
        `INSERT INTO dh_health (position, device_uuid, recorded_at, health, reason, cause_kind, cause, effect, policy_version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (position) DO NOTHING`,
        [event.position, d.deviceUuid, event.recordedAt, d.health, d.reason, d.cause?.kind ?? null, d.cause ? canonicalJson(d.cause) : null, d.effect, d.policyVersion],
      );
      break;
    }
  }
  await addToTimeline(tx, event);
}

/** `WHERE true` keeps SQLite from reading the upsert's ON CONFLICT as the last join's ON. */
async function openTenancy(tx: SqlExecutor, event: RecordedEvent, claim: AttachHandleClaim): Promise<void> {
  await tx.run(
    `INSERT INTO dh_tenancies (from_position, from_time, device_uuid, deployable_uuid, attach_handle_uuid, region, arq_uuid, instance_uuid,
       project_id, device_profile_uuid, device_profile_name, bitstream_id, resource_class, memory_gib)
     SELECT $1, $2, $3, $4, $5, r.region, $6, a.instance_uuid, a.project_id, a.device_profile_uuid, a.device_profile_name, r.bitstream_id,
       a.resource_class, d.memory_gib
     FROM (SELECT 1 AS one) AS claim
     LEFT JOIN dh_arqs a ON a.arq_uuid = $6
     LEFT JOIN dh_regions r ON r.deployable_uuid = $4
     LEFT JOIN dh_devices d ON d.device_uuid = $3
     WHERE true
     ON CONFLICT (from_position) DO NOTHING`,
    [event.position, event.recordedAt, claim.deviceUuid, claim.deployableUuid, claim.handleUuid, claim.arqUuid],
  );
}

/** The GPU memory a device reports now; a tenancy keeps what it was at its claim, for usage reports' GiB-seconds. */
async function recordDeviceMemory(tx: SqlExecutor, deviceUuid: string, capacity: Readonly<Record<string, number>> | undefined, position: number): Promise<void> {
  await tx.run(
    `INSERT INTO dh_devices (device_uuid, memory_gib, position) VALUES ($1, $2, $3)
     ON CONFLICT (device_uuid) DO UPDATE SET memory_gib = excluded.memory_gib, position = excluded.position WHERE dh_devices.position < excluded.position`,
    [deviceUuid, capacity?.memoryGiB ?? null, position],
  );
}

/** A region programmed during a tenancy (a bind's own bitstream) is what that tenancy ran under. */
async function recordRegionContent(tx: SqlExecutor, event: RecordedEvent<string, RegionProgrammed['data']>): Promise<void> {
  const d = event.data;
  await tx.run(
    `INSERT INTO dh_regions (deployable_uuid, region, bitstream_id, position) VALUES ($1, $2, $3, $4)
     ON CONFLICT (deployable_uuid) DO UPDATE SET region = excluded.region, bitstream_id = excluded.bitstream_id, position = excluded.position
     WHERE dh_regions.position < excluded.position`,
    [d.deployableUuid, d.region, d.bitstreamId, event.position],
  );
  await tx.run(
    `UPDATE dh_tenancies SET region = $2, bitstream_id = $3 WHERE deployable_uuid = $1 AND to_position IS NULL AND from_position < $4`,
    [d.deployableUuid, d.region, d.bitstreamId, event.position],
  );
}

async function addToTimeline(tx: SqlExecutor, event: RecordedEvent): Promise<void> {
  const { deviceUuid, project } = await timelineSubject(tx, event);
  if (!deviceUuid) return;
  await tx.run(
    `INSERT INTO dh_timeline (position, device_uuid, type, recorded_at, actor, project_id, summary) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (device_uuid, position) DO NOTHING`,
    [event.position, deviceUuid, event.type, event.recordedAt, event.metadata.actor.user, project, summarizeDeviceEvent(event)],
  );
}

/** Which device an event touches, and whose use of it it belongs to (null: the operator's, e.g. discovery). */
async function timelineSubject(tx: SqlExecutor, event: RecordedEvent): Promise<{ deviceUuid: string | null; project: string | null }> {
  const data = event.data as Record<string, unknown>;
  if (ARQ_TYPES.has(event.type) || event.type === 'inventory.AttachHandleClaimed' || event.type === 'inventory.AttachHandleReleased') {
    const arqUuid = String(data.arqUuid ?? data.uuid);
    const arq = await tx.get<ArqFacts>('SELECT project_id, device_uuid FROM dh_arqs WHERE arq_uuid = $1', [arqUuid]);
    const deviceUuid = (data.deviceUuid as string | undefined) ?? arq?.device_uuid ?? null;
    return { deviceUuid, project: arq?.project_id ?? null };
  }
  if (event.type === 'inventory.DeviceDiscovered') return { deviceUuid: (data.device as { uuid: string }).uuid, project: null };
  const requestedBy = data.requestedBy as DeviceJobRequester | undefined;
  return { deviceUuid: (data.deviceUuid as string | undefined) ?? null, project: requestedBy?.project ?? null };
}
