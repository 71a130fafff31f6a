import type { Command } from 'commander';
import type { DeviceView } from '@ledger/projections/inventory';
import { allPages } from '../support/all-pages';
import { LedgerApiClient as Client, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { formatTable } from '../support/text-table';
import { registerDeviceHealthCommands } from './device-health.command';

type Options = LedgerApiOptions & { readonly json?: boolean; readonly host?: string; readonly reason?: string };

interface DeviceCleanAnswer {
  readonly uuid: string;
  readonly appended: number;
}

const DEVICE_HELP = "devices: list and show them with their maintenance, health and clean state; retry or release a failed clean; clear an unhealthy one once repaired (a running ledger's API)";

/** One row per device: where it is, what it is, and whether it can be offered (maintenance, health, clean state). */
export function formatDeviceTable(devices: readonly DeviceView[]): string {
  if (devices.length === 0) return 'no devices\n';
  const rows = devices.map((device) => [device.uuid, device.hostname, device.type, device.pciAddress, device.status, device.health, cleanCell(device)]);
  return formatTable(['UUID', 'HOST', 'TYPE', 'PCI ADDRESS', 'STATUS', 'HEALTH', 'CLEAN'], rows);
}

/** `cleaning (2 handles)`, `clean-failed: reason`, or `clean`. */
function cleanCell(device: DeviceView): string {
  const dirty = Object.keys(device.dirtyHandles ?? {}).length;
  if (device.cleanState === 'clean' || device.cleanState === undefined) return 'clean';
  const handles = dirty > 1 ? ` (${dirty} handles)` : '';
  return device.cleanReason ? `${device.cleanState}${handles}: ${device.cleanReason}` : `${device.cleanState}${handles}`;
}

/** `name: value` lines of one device, the clean state's handles last. */
export function formatDevice(device: DeviceView): string {
  const lines: [string, string][] = [
    ['uuid', device.uuid],
    ['host', device.hostname],
    ['type', device.type],
    ['model', device.model],
    ['pci address', device.pciAddress],
    ['status', device.disabledReason ? `${device.status} (${device.disabledReason})` : device.status],
    ['health', device.healthReason ? `${device.health} (${device.healthReason})` : device.health],
    ['clean', cleanCell(device)],
    ...Object.entries(device.dirtyHandles ?? {}).map(([handle, status]): [string, string] => [`  handle ${handle}`, status]),
  ];
  return lines.map(([name, value]) => `${name}: ${value}\n`).join('');
}

/**
 * `device list [--host H]`, `device show UUID`, `device clean retry|release UUID`
 * (admin; docs/operations.md, "Cleaning released devices") and `device health clear UUID`
 * (admin; device-health.command.ts).
 */
export function registerDeviceCommands(program: Command): void {
  const device = program.command('device').description(DEVICE_HELP);
  withLedgerApiOptions(device.command('list').description('every device, with its maintenance, health and clean state').option('--host <hostname>', 'only this host').option('--json', 'print JSON')).action(
    async (options: Options) => {
      const path = options.host ? `/api/v1/devices?hostname=${encodeURIComponent(options.host)}` : '/api/v1/devices';
      const devices = await allPages<DeviceView>(Client.fromOptions(options), path);
      process.stdout.write(options.json ? `${JSON.stringify(devices)}\n` : formatDeviceTable(devices));
    },
  );
  withLedgerApiOptions(device.command('show').description('one device, with the handles still to clean').argument('<uuid>').option('--json', 'print JSON')).action(
    async (uuid: string, options: Options) => {
      const view = await Client.fromOptions(options).request<DeviceView>('GET', `/api/v1/devices/${encodeURIComponent(uuid)}`);
      process.stdout.write(options.json ? `${JSON.stringify(view)}\n` : formatDevice(view));
    },
  );
  registerDeviceHealthCommands(device);
  const clean = device.command('clean').description('answer a failed clean: retry it, or offer the device without one (admin)');
  withLedgerApiOptions(clean.command('retry').description('clean the device again: a new clean job on its agent').argument('<uuid>').option('--json', 'print JSON')).action(
    async (uuid: string, options: Options) => {
      const answer = await Client.fromOptions(options).request<DeviceCleanAnswer>('POST', `/api/v1/devices/${encodeURIComponent(uuid)}/clean/retry`);
      process.stdout.write(options.json ? `${JSON.stringify(answer)}\n` : `${answer.uuid}: cleaning again\n`);
    },
  );
  withLedgerApiOptions(
    clean.command('release').description('offer the device again without a clean').argument('<uuid>').option('--reason <text>', 'why: recorded with the release').option('--json', 'print JSON'),
  ).action(async (uuid: string, options: Options) => {
    const body = options.reason === undefined ? {} : { reason: options.reason };
    const answer = await Client.fromOptions(options).request<DeviceCleanAnswer>('POST', `/api/v1/devices/${encodeURIComponent(uuid)}/clean/release`, body);
    process.stdout.write(options.json ? `${JSON.stringify(answer)}\n` : `${answer.uuid}: offered again without a clean\n`);
  });
}
