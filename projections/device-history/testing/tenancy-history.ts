import type { RecordedEvent } from '@ledger/eventstore';
import type { Actor } from '@ledger/kernel';
import { InMemoryEventStore } from '@ledger/processing/testing';

export const DEVICE = '0b0e0000-0000-4000-8000-000000000001';
export const DEPLOYABLE = '0b0e0000-0000-4000-8000-0000000000d1';
export const HANDLE = '0b0e0000-0000-4000-8000-0000000000a1';

const actor = (user: string, project: string | null): Actor => ({ user, project, roles: project ? ['member'] : ['admin'] });

/** A device discovered, then held by project p1 (programmed during its bind), released, then held by p2: in log order, one second apart. */
export async function recordTwoTenancies(): Promise<RecordedEvent[]> {
  let second = 0;
  const store = new InMemoryEventStore(() => new Date(Date.UTC(2026, 10, 1, 10, 0, second++)));
  const append = (stream: string, type: string, data: unknown, by: Actor = actor('admin', null)) =>
    store.append(stream, [{ type, data, metadata: { correlationId: 'c', causationId: null, actor: by, schemaVersion: 1 } }], { expected: 'any' });
  const claim = (arqUuid: string) => ({ deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, handleUuid: HANDLE, arqUuid });
  await append('host-h1', 'inventory.DeviceDiscovered', { hostname: 'h1', device: { uuid: DEVICE } });
  for (const [arq, project, bitstream] of [['arq-1', 'p1', 'bs-1'], ['arq-2', 'p2', null]] as const) {
    const by = actor(`${project}-user`, project);
    await append(`arq-${arq}`, 'allocation.ArqCreated', { uuid: arq, projectId: project, deviceProfileUuid: `prof-${project}`, deviceProfileName: `fpga-${project}` }, by);
    await append(`arq-${arq}`, 'allocation.ArqBindStarted', { uuid: arq, instanceUuid: `vm-${project}`, deviceUuid: DEVICE, deployableUuid: DEPLOYABLE }, actor('nova', 'service'));
    await append(`device-${DEVICE}`, 'inventory.AttachHandleClaimed', claim(arq), actor('nova', 'service'));
    if (bitstream) {
      await append(`device-${DEVICE}`, 'inventory.RegionProgrammed', {
        deviceUuid: DEVICE, hostname: 'h1', jobId: 'job-1', requestedBy: { user: 'ledger', project, workflow: 'bind' },
        deployableUuid: DEPLOYABLE, region: 'pr0', bitstreamId: bitstream, sha256: null, functionId: 'f1', previousFunctionId: null, programmedAt: '',
      });
    }
    await append(`arq-${arq}`, 'allocation.ArqBound', { uuid: arq }, actor('nova', 'service'));
    if (project === 'p1') {
      await append(`arq-${arq}`, 'allocation.ArqUnbound', { uuid: arq }, actor('nova', 'service'));
      await append(`device-${DEVICE}`, 'inventory.AttachHandleReleased', claim(arq), actor('nova', 'service'));
    }
  }
  return (await store.readAll({ max: 1000 })).events;
}
