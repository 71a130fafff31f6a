import type { DeviceProfileData, DeviceProfileEvent } from '@ledger/allocation';
import type { RecordedEvent } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';

export const PROFILE_UUIDS = {
  fpga: '0196b3c2-0000-7000-8000-0000000000a1',
  gpu: '0196b3c2-0000-7000-8000-0000000000a2',
  fpgaAgain: '0196b3c2-0000-7000-8000-0000000000a3',
  tmp: '0196b3c2-0000-7000-8000-0000000000a4',
} as const;

const profile = (uuid: string, name: string, createdAt: string, groups: Record<string, string>[]): DeviceProfileData => ({
  uuid,
  name,
  description: name === 'gpu-dp' ? 'one A100' : null,
  groups,
  createdAt,
});

/**
 * A history with every case the read model must get right: creates, a
 * delete, a name reused by a new profile after its delete, and a uuid
 * reused by another name after its profile was deleted.
 */
export function deviceProfileHistory(): RecordedEvent[] {
  const fpgaGroups = [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }];
  const events: { stream: string; event: DeviceProfileEvent }[] = [
    { stream: 'profile-fpga-dp', event: { type: 'allocation.DeviceProfileCreated', data: profile(PROFILE_UUIDS.fpga, 'fpga-dp', '2026-03-01T10:00:00.000Z', fpgaGroups) } },
    { stream: 'profile-gpu-dp', event: { type: 'allocation.DeviceProfileCreated', data: profile(PROFILE_UUIDS.gpu, 'gpu-dp', '2026-03-01T10:00:01.000Z', [{ 'resources:PGPU': '2' }, { 'resources:VGPU': '1' }]) } },
    { stream: 'profile-tmp-dp', event: { type: 'allocation.DeviceProfileCreated', data: profile(PROFILE_UUIDS.tmp, 'tmp-dp', '2026-03-01T10:00:02.000Z', [{ 'resources:FPGA': '1' }]) } },
    { stream: 'profile-fpga-dp', event: { type: 'allocation.DeviceProfileDeleted', data: { uuid: PROFILE_UUIDS.fpga, name: 'fpga-dp' } } },
    { stream: 'profile-fpga-dp', event: { type: 'allocation.DeviceProfileCreated', data: profile(PROFILE_UUIDS.fpgaAgain, 'fpga-dp', '2026-03-01T10:00:03.000Z', fpgaGroups) } },
    { stream: 'profile-tmp-dp', event: { type: 'allocation.DeviceProfileDeleted', data: { uuid: PROFILE_UUIDS.tmp, name: 'tmp-dp' } } },
    { stream: 'profile-tmp2-dp', event: { type: 'allocation.DeviceProfileCreated', data: profile(PROFILE_UUIDS.tmp, 'tmp2-dp', '2026-03-01T10:00:04.000Z', [{ 'resources:CUSTOM_QAT': '1' }]) } },
  ];
  const versions = new Map<string, number>();
  return events.map(({ stream, event }, index) => {
    const version = (versions.get(stream) ?? 0) + 1;
    versions.set(stream, version);
    return {
      id: `0196b3c2-0000-7000-8000-${String(index + 1).padStart(12, '0')}`,
      type: event.type,
      stream,
      version,
      position: index + 1,
      recordedAt: '2026-03-01T10:00:05.000Z',
      data: event.data,
      metadata: { correlationId: 'test', causationId: null, actor: SYSTEM_ACTOR, schemaVersion: 1 },
      prevHash: '0'.repeat(64),
      hash: '0'.repeat(64),
    } as RecordedEvent;
  });
}
