import type { EventStore } from '@ledger/eventstore';
import type { Actor } from '@ledger/kernel';

export const DEVICE = '0b0e0000-0000-4000-8000-000000000001';
export const DEPLOYABLE = '0b0e0000-0000-4000-8000-0000000000d1';
export const HANDLE = '0b0e0000-0000-4000-8000-0000000000a1';
export const ARQ_1 = '0a000000-0000-4000-8000-000000000001';
export const ARQ_2 = '0a000000-0000-4000-8000-000000000002';

export interface HeldSlot {
  readonly device: string;
  readonly deployable: string;
  readonly handle: string;
}

export const actor = (user: string, project: string | null): Actor => ({ user, project, roles: project ? ['member'] : ['admin'] });
const NOVA = actor('nova', 'service');

/**
 * Project p1 holds the slot (its bind programs bitstream bs-1 into region
 * pr0), unbinds and releases it; then p2 holds it and still does. The
 * facts a bind records, with complete data, so every projection of a real
 * ledger can read them (each request reserves one FPGA of its project's
 * quota). Request ids are ARQ_1 and ARQ_2.
 */
export async function appendTwoTenancies(store: Pick<EventStore, 'append'>, slot: HeldSlot): Promise<void> {
  const append = (stream: string, type: string, data: unknown, by: Actor = NOVA) =>
    store.append(stream, [{ type, data, metadata: { correlationId: 'c', causationId: null, actor: by, schemaVersion: 1 } }], { expected: 'any' });
  const claim = (arqUuid: string) => ({ deviceUuid: slot.device, deployableUuid: slot.deployable, handleUuid: slot.handle, arqUuid });
  const at = '2026-11-01T10:00:00.000Z';
  for (const [arq, project, bitstream] of [[ARQ_1, 'p1', 'bs-1'], [ARQ_2, 'p2', null]] as const) {
    await append(`arq-${arq}`, 'allocation.ArqCreated', {
      uuid: arq, projectId: project, deviceProfileUuid: `prof-${project}`, deviceProfileName: `fpga-${project}`,
      groupId: 0, resourceClass: 'FPGA', requiredTraits: [], forbiddenTraits: [], createdAt: at,
    }, actor(`${project}-user`, project));
    await append(`quota-${project}`, 'quota.Reserved', { project, consumerId: arq, resources: { FPGA: 1 } }, actor(`${project}-user`, project));
    await append(`arq-${arq}`, 'allocation.ArqBindStarted', {
      uuid: arq, hostname: 'h1', deviceRpUuid: slot.deployable, instanceUuid: `vm-${project}`, deviceUuid: slot.device, deployableUuid: slot.deployable, startedAt: at,
    });
    await append(`device-${slot.device}`, 'inventory.AttachHandleClaimed', claim(arq));
    if (bitstream) {
      await append(`device-${slot.device}`, 'inventory.RegionProgrammed', {
        deviceUuid: slot.device, hostname: 'h1', jobId: `job-${arq}`, requestedBy: { user: 'ledger', project, workflow: 'bind' },
        deployableUuid: slot.deployable, region: 'pr0', bitstreamId: bitstream, sha256: null, functionId: 'f1', previousFunctionId: null, programmedAt: at,
      });
    }
    await append(`arq-${arq}`, 'allocation.ArqBound', { uuid: arq, attachHandle: { uuid: slot.handle, type: 'PCI', info: {} }, boundAt: at });
    if (project === 'p1') {
      await append(`arq-${arq}`, 'allocation.ArqUnbound', { uuid: arq, unboundAt: at });
      await append(`device-${slot.device}`, 'inventory.AttachHandleReleased', claim(arq));
    }
  }
}
