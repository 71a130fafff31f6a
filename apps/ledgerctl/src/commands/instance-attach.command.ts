import type { Command } from 'commander';
import { LedgerApiClient } from '../support/ledger-api-client';
import { parseDeviceReference, resolveDevice } from './device-reference';
import { type JobCommandOptions, reportJob, requestJob, withJobOptions } from './job-command';

/**
 * `attach-instance` and `detach-instance` (the generic-driver spec's): an
 * `attach` / `detach` job on the device's host, whose agent hands the
 * device (or VF) to an instance (bound to vfio-pci) or gives it back to
 * its host driver. The device is looked up first, so the job names its
 * host and address.
 */
export function registerInstanceCommands(program: Command): void {
  for (const [name, kind, description] of [
    ['attach-instance', 'attach', 'pass a device (or one of its VFs) through to an instance: bind it to vfio-pci on its host'],
    ['detach-instance', 'detach', 'take a device (or VF) back from an instance: return it to its host driver'],
  ] as const) {
    withJobOptions(
      program
        .command(name)
        .description(description)
        .argument('<device>', 'the device uuid, or PCI-ADDRESS@HOST (a device\'s or a VF\'s address, e.g. 0000:3b:00.1@compute-1)')
        .argument('<instance-uuid>', 'the instance (e.g. the Nova server uuid)'),
    ).action(async (device: string, instanceUuid: string, options: JobCommandOptions) => {
      const reference = parseDeviceReference(device);
      const client = LedgerApiClient.fromOptions(options);
      const target = await resolveDevice(client, reference);
      const params = { deviceUuid: target.deviceUuid, pciAddress: target.pciAddress, instanceUuid };
      await reportJob(client, await requestJob(client, target.hostname, kind, params, options.timeout), options);
    });
  }
}
