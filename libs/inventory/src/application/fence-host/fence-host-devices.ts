import type { CommandContext } from '@ledger/eventstore';
import type { HostFenceState } from '../../domain/host-fence.decider';
import type { DeviceCommands } from '../device-commands';

/**
 * Brings every device the host ever reported under the fence in force:
 * DeviceFenced with the release of every hold, one append per device. Each
 * device's fence is idempotent, so this completes a fence a crash cut
 * short, and fences a device the host reports for the first time while it
 * is fenced. Does nothing for a host that is not fenced.
 */
export async function fenceHostDevices(devices: DeviceCommands, host: HostFenceState, context: CommandContext): Promise<void> {
  const fence = host.fenced;
  if (fence === null || host.hostname === null) return;
  for (const deviceUuid of host.devices) {
    await devices.run({ type: 'FenceDevice', deviceUuid, hostname: host.hostname, reason: fence.reason, fencedAt: fence.at }, context);
  }
}
