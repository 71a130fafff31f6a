import type { LiveArq } from '@ledger/allocation';
import type { ArqView } from '@ledger/projections/arqs';
import { cyborgLinks, cyborgTime } from '../cyborg-representation';

/** An ARQ as Cyborg serves it, field for field and in its order (cyborg-v2-samples/arq_*.json). */
export function cyborgArq(arq: ArqView, baseUrl: string) {
  return {
    uuid: arq.uuid,
    state: arq.state,
    device_profile_name: arq.deviceProfileName,
    device_profile_group_id: arq.deviceProfileGroupId,
    hostname: arq.hostname,
    device_rp_uuid: arq.deviceRpUuid,
    instance_uuid: arq.instanceUuid,
    project_id: arq.projectId,
    attach_handle_type: arq.attachHandleType,
    attach_handle_info: arq.attachHandleInfo,
    links: cyborgLinks(baseUrl, 'accelerator_requests', arq.uuid),
    created_at: cyborgTime(arq.createdAt),
    updated_at: cyborgTime(arq.updatedAt),
  };
}

/** The same view of a request straight from its stream (what a command answers). */
export function arqViewOf(arq: LiveArq): ArqView {
  return {
    uuid: arq.uuid,
    state: arq.state,
    deviceProfileUuid: arq.deviceProfileUuid,
    deviceProfileName: arq.deviceProfileName,
    deviceProfileGroupId: arq.groupId,
    resourceClass: arq.resourceClass,
    hostname: arq.binding?.hostname ?? null,
    deviceRpUuid: arq.binding?.deviceRpUuid ?? null,
    instanceUuid: arq.binding?.instanceUuid ?? null,
    projectId: arq.projectId,
    deviceUuid: arq.binding?.deviceUuid ?? null,
    attachHandleUuid: arq.attachHandle?.uuid ?? null,
    attachHandleType: arq.attachHandle?.type ?? '',
    attachHandleInfo: { ...(arq.attachHandle?.info ?? {}) },
    createdAt: arq.createdAt,
    updatedAt: arq.updatedAt,
    lastBindId: arq.lastBindId ?? null,
  };
}
