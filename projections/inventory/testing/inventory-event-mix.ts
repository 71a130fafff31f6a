import type { RecordedEvent } from '@ledger/eventstore';
import {
  deviceUuidOf,
  hostInventoryDecider,
  type InventoryEvent,
  type ReportedDevice,
} from '@ledger/inventory';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { a100, arria10, t4vgpu, x710 } from '../../../libs/inventory/src/domain/testing/host-report.fixtures';

export interface InventoryEventMixOptions {
  readonly hosts: number;
  /**
   * `steady` (default): each host discovers 8 devices once, then a rolling
   * driver upgrade and VF resizing change them 8 times, and one GPU goes
   * through maintenance 4 times (~18% discoveries). `churn`: heavier, with
   * device removals, renumbered handles and physical-network moves (~30%
   * discoveries).
   */
  readonly mix?: 'steady' | 'churn';
}

/**
 * Recorded inventory events for many hosts, produced by the real decider and
 * enveloped as a store would (positions, stream versions, times): for
 * rebuild benchmarks and large idempotency checks.
 */
export function generateInventoryEvents(options: InventoryEventMixOptions): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  const versions = new Map<string, number>();
  const record = (stream: string, batch: readonly InventoryEvent[]) => {
    for (const event of batch) {
      const version = (versions.get(stream) ?? 0) + 1;
      versions.set(stream, version);
      const position = events.length + 1;
      events.push({
        id: `00000000-0000-7000-8000-${position.toString(16).padStart(12, '0')}`,
        type: event.type,
        stream,
        version,
        position,
        recordedAt: new Date(Date.UTC(2026, 2, 1) + position).toISOString(),
        data: event.data,
        metadata: { correlationId: 'inventory-event-mix', causationId: null, actor: SYSTEM_ACTOR, schemaVersion: 1 },
        prevHash: '',
        hash: '',
      });
    }
  };
  for (let index = 0; index < options.hosts; index++) {
    const hostname = `compute-${index}`;
    let state = hostInventoryDecider.initialState();
    for (const devices of reportsOf(options.mix ?? 'steady')) {
      const command = { type: 'ReportHost', report: { hostname, devices }, receivedAt: '2026-03-01T00:00:00.000Z' } as const;
      const batch = hostInventoryDecider.decide(command, state);
      state = batch.reduce(hostInventoryDecider.evolve, state);
      record(`host-${hostname}`, batch);
    }
    const gpu = deviceUuidOf(hostname, '0000:3b:00.0');
    for (let round = 0; round < (options.mix === 'churn' ? 1 : 4); round++) {
      record(`device-${gpu}`, [
        { type: 'inventory.DeviceDisabled', data: { deviceUuid: gpu, reason: 'firmware update' } },
        { type: 'inventory.DeviceEnabled', data: { deviceUuid: gpu } },
      ]);
    }
  }
  return events;
}

function reportsOf(mix: 'steady' | 'churn'): ReportedDevice[][] {
  const gpus = ['0000:3b:00.0', '0000:3c:00.0', '0000:3d:00.0', '0000:3e:00.0'].map((address) => a100(address));
  const fpga = (vfs: number) => arria10('0000:5e:00.0', vfs);
  if (mix === 'steady') {
    const base = [...gpus, fpga(4), x710('0000:af:00.0'), x710('0000:b0:00.0'), t4vgpu('0000:d8:00.0', 4)];
    const upgrades = Array.from({ length: 8 }, (_, round) => [
      ...gpus.map((gpu) => ({ ...gpu, driver: round % 2 === 0 ? 'nvidia' : 'vfio-pci' })),
      fpga(4 + (round % 2)),
      ...base.slice(5),
    ]);
    return [base, ...upgrades];
  }
  const [gpu0, gpu1] = gpus;
  const vgpu = t4vgpu('0000:d8:00.0', 4);
  return [
    [gpu0, gpu1, fpga(4), x710('0000:af:00.0'), vgpu],
    [{ ...gpu0, driver: 'nvidia' }, gpu1, fpga(4), x710('0000:af:00.0'), vgpu],
    [gpu0, gpu1, fpga(6), x710('0000:af:00.0'), vgpu],
    [gpu0, gpu1, fpga(6), x710('0000:af:00.0', 'physnet2'), vgpu],
    [gpu0, fpga(6), x710('0000:af:00.0', 'physnet2'), vgpu],
    [gpu0, gpu1, fpga(2), x710('0000:af:00.0', 'physnet2'), { ...vgpu, capacity: { memoryGiB: 16 } }],
  ];
}
