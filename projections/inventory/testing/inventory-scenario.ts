import { handleCommand, type CommandContext, type EventStore, type RecordedEvent } from '@ledger/eventstore';
import {
  deviceDecider,
  deviceStream,
  deviceUuidOf,
  hostInventoryDecider,
  hostStream,
  type DeviceMaintenanceCommand,
  type ReportedDevice,
} from '@ledger/inventory';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore } from '@ledger/processing/testing';
import { a100, arria10, t4vgpu, x710 } from '../../../libs/inventory/src/domain/testing/host-report.fixtures';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: 'inventory-scenario' };

export const scenarioDevices = {
  compute1Gpu: deviceUuidOf('compute-1', '0000:3b:00.0'),
  compute1Fpga: deviceUuidOf('compute-1', '0000:5e:00.0'),
  compute1Nic: deviceUuidOf('compute-1', '0000:af:00.0'),
  compute2Vgpu: deviceUuidOf('compute-2', '0000:d8:00.0'),
  compute2Gpu: deviceUuidOf('compute-2', '0000:18:00.0'),
};

/**
 * A realistic history of three hosts: first reports, a shrinking FPGA, a
 * driver change, a NIC moved to another physical network, a disabled GPU
 * that vanishes and comes back, a renamed vGPU deployable, an unchanged
 * report. Returns every recorded event in log order.
 */
export async function recordInventoryScenario(store: EventStore = new InMemoryEventStore()): Promise<RecordedEvent[]> {
  const report = (hostname: string, devices: readonly ReportedDevice[]) =>
    handleCommand(
      store,
      hostStream(hostname),
      hostInventoryDecider,
      { type: 'ReportHost', report: { hostname, devices }, receivedAt: '2026-03-01T10:00:00.000Z' },
      context,
    );
  const maintain = (command: DeviceMaintenanceCommand) =>
    handleCommand(store, deviceStream(command.deviceUuid), deviceDecider, command, context);

  await report('compute-1', [a100('0000:3b:00.0'), arria10('0000:5e:00.0', 3), x710('0000:af:00.0')]);
  await report('compute-2', [t4vgpu('0000:d8:00.0', 4), a100('0000:18:00.0')]);
  await report('compute-3', []);
  await report('compute-1', [{ ...a100('0000:3b:00.0'), driver: 'nvidia' }, arria10('0000:5e:00.0', 2), x710('0000:af:00.0', 'physnet2')]);
  await maintain({ type: 'DisableDevice', deviceUuid: scenarioDevices.compute1Gpu, reason: 'fan failure' });
  await maintain({ type: 'DisableDevice', deviceUuid: scenarioDevices.compute2Vgpu, reason: null });
  const renamed = t4vgpu('0000:d8:00.0', 2);
  await report('compute-2', [{ ...renamed, deployables: [{ ...renamed.deployables[0], name: 'compute-2_t4' }] }]);
  await report('compute-1', [arria10('0000:5e:00.0', 2), x710('0000:af:00.0', 'physnet2')]);
  await report('compute-1', [a100('0000:3b:00.0'), arria10('0000:5e:00.0', 2), x710('0000:af:00.0', 'physnet2')]);
  await maintain({ type: 'EnableDevice', deviceUuid: scenarioDevices.compute2Vgpu });
  await report('compute-1', [a100('0000:3b:00.0'), arria10('0000:5e:00.0', 2), x710('0000:af:00.0', 'physnet2')]);

  const { events } = await store.readAll({ max: 10_000 });
  return events;
}
