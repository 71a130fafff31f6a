import { normalizePciAddress } from '../../discovery/pci-address';
import { DriverSettings } from '../driver-settings';

export interface NvidiaGpuSettings {
  /** nvidia-smi (`/usr/bin/nvidia-smi`); absent means health and telemetry come from sysfs alone. */
  readonly nvidiaSmiPath: string;
  readonly nvidiaSmiTimeoutSeconds: number;
  /** GPUs offered as vGPUs: PCI address → the mdev type (`{"0000:af:00.0": "nvidia-223"}`); every other GPU is a PGPU. Cyborg's `[vgpu_<type>] device_addresses`. */
  readonly vgpuTypes: Readonly<Record<string, string>>;
  /** A kernel log to read Xid errors from (`/var/log/kern.log`); none by default. */
  readonly xidLogPath?: string;
}

export function parseNvidiaGpuSettings(raw: unknown): NvidiaGpuSettings {
  const settings: DriverSettings = new DriverSettings(raw, 'nvidia-gpu');
  const vgpuTypes: Record<string, string> = {};
  for (const [address, type] of Object.entries(settings.stringMap('vgpuTypes'))) {
    const canonical = normalizePciAddress(address);
    if (canonical === undefined) settings.fail(`${settings.at('vgpuTypes')}.${address}`, 'is not a PCI address');
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(type)) settings.fail(`${settings.at('vgpuTypes')}.${address}`, `"${type}" is not an mdev type name`);
    if (vgpuTypes[canonical] !== undefined) settings.fail(`${settings.at('vgpuTypes')}.${address}`, 'names a GPU twice');
    vgpuTypes[canonical] = type;
  }
  const parsed = {
    nvidiaSmiPath: settings.string('nvidiaSmiPath', '/usr/bin/nvidia-smi'),
    nvidiaSmiTimeoutSeconds: settings.number('nvidiaSmiTimeoutSeconds', 10, 1, 300),
    vgpuTypes,
    xidLogPath: settings.optionalString('xidLogPath'),
  };
  settings.done();
  return parsed;
}
