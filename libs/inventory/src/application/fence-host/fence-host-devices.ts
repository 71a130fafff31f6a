import type { CommandContext } from '@ledger/eventstore';
import type { FenceDevice, UnfenceDevice } from '../../domain/device.decider';
import type { HostFenceState } from '../../domain/host-fence.decider';
import type { DeviceCleaningPolicy } from '../clean-device/device-cleaning.policy';

/** Runs a command on a device's stream (the inventory's device commands). */
export type RunOnDevice = (command: FenceDevice | UnfenceDevice, context: CommandContext) => Promise<unknown>;

/**
 * Brings every device the host ever reported under the fence in force:
 * DeviceFenced with the release of every hold, one append per device, and,
 * for a device type that cleans, the released handles pending a clean
 * (started at the unfence). Each device's fence is idempotent, so this
 * completes a fence a crash cut short, and fences a device the host reports
 * for the first time while it is fenced. Does nothing for a host that is
 * not fenced. The fence handler, the report handler and the host-fence
 * reactor all fence through it.
 */
export async function fenceHostDevices(runOnDevice: RunOnDevice, host: HostFenceState, context: CommandContext, cleaning?: DeviceCleaningPolicy): Promise<void> {
  const fence = host.fenced;
  if (fence === null || host.hostname === null) return;
  for (const deviceUuid of host.devices) {
    const clean = (await cleaning?.cleansAfterRelease(deviceUuid)) ?? false;
    await runOnDevice({ type: 'FenceDevice', deviceUuid, hostname: host.hostname, reason: fence.reason, fencedAt: fence.at, clean }, context);
  }
}

/**
 * Brings every device the host reported to the host's fence as it stands
 * now: fenced (fenceHostDevices) or unfenced, whose cleaning of what the
 * fence released starts in the same append. The unfence handler and the
 * host-fence reactor both settle a host through it.
 */
export async function settleHostFence(runOnDevice: RunOnDevice, host: HostFenceState, context: CommandContext, cleaning?: DeviceCleaningPolicy): Promise<void> {
  if (host.fenced !== null) return fenceHostDevices(runOnDevice, host, context, cleaning);
  if (host.hostname === null) return;
  for (const deviceUuid of host.devices) await runOnDevice({ type: 'UnfenceDevice', deviceUuid, hostname: host.hostname }, context);
}
