import type { ArqEvent } from '@ledger/allocation';
import type { RecordedEvent } from '@ledger/eventstore';
import { canonicalJson } from '@ledger/kernel';
import type { SqlExecutor } from '@ledger/processing';

/**
 * Applies one event to `arq_requests`. Every update is guarded by the
 * stream version, so a redelivered event changes nothing; a delete removes
 * the row (Cyborg deletes hard; the history stays in the log). Resolves to
 * whether the event changed the row (false when it was applied before).
 */
export async function applyArqEvent(tx: SqlExecutor, recorded: RecordedEvent): Promise<boolean> {
  const event = recorded as unknown as RecordedEvent & ArqEvent;
  const guard = [recorded.version];
  switch (event.type) {
    case 'allocation.ArqCreated': {
      const d = event.data;
      return (await tx.run(
        `INSERT INTO arq_requests (uuid, project_id, state, device_profile_uuid, device_profile_name, device_profile_group_id,
           resource_class, stream_version, created_at)
         VALUES ($1, $2, 'Initial', $3, $4, $5, $6, $7, $8) ON CONFLICT (uuid) DO NOTHING`,
        [d.uuid, d.projectId, d.deviceProfileUuid, d.deviceProfileName, d.groupId, d.resourceClass, recorded.version, d.createdAt],
      )) > 0;
    }
    case 'allocation.ArqBindStarted': {
      const d = event.data;
      return (await tx.run(
        `UPDATE arq_requests SET state = 'BindStarted', hostname = $2, device_rp_uuid = $3, instance_uuid = $4, device_uuid = $5,
           deployable_uuid = $6, attach_handle_uuid = NULL, attach_handle_type = '', attach_handle_info = '{}', failure = NULL,
           last_bind_id = $9, stream_version = $7, updated_at = $8
         WHERE uuid = $1 AND stream_version < $7`,
        [d.uuid, d.hostname, d.deviceRpUuid, d.instanceUuid, d.deviceUuid, d.deployableUuid, ...guard, d.startedAt, d.bindId ?? null],
      )) > 0;
    }
    case 'allocation.ArqBound': {
      const d = event.data;
      return (await tx.run(
        `UPDATE arq_requests SET state = 'Bound', attach_handle_uuid = $2, attach_handle_type = $3, attach_handle_info = $4,
           stream_version = $5, updated_at = $6
         WHERE uuid = $1 AND stream_version < $5`,
        [d.uuid, d.attachHandle.uuid, d.attachHandle.type, canonicalJson(d.attachHandle.info), ...guard, d.boundAt],
      )) > 0;
    }
    case 'allocation.ArqBindFailed': {
      const d = event.data;
      return (await tx.run(
        `UPDATE arq_requests SET state = 'BindFailed', failure = $2, stream_version = $3, updated_at = $4 WHERE uuid = $1 AND stream_version < $3`,
        [d.uuid, `${d.code}: ${d.reason}`, ...guard, d.failedAt],
      )) > 0;
    }
    case 'allocation.ArqUnbound': {
      const d = event.data;
      return (await tx.run(
        `UPDATE arq_requests SET state = 'Unbound', hostname = NULL, device_rp_uuid = NULL, instance_uuid = NULL, device_uuid = NULL,
           deployable_uuid = NULL, attach_handle_uuid = NULL, attach_handle_type = '', attach_handle_info = '{}', failure = NULL,
           stream_version = $2, updated_at = $3
         WHERE uuid = $1 AND stream_version < $2`,
        [d.uuid, ...guard, d.unboundAt],
      )) > 0;
    }
    case 'allocation.ArqDeleted':
      return (await tx.run('DELETE FROM arq_requests WHERE uuid = $1', [event.data.uuid])) > 0;
    default:
      return false;
  }
}
