import { isUuid } from '@ledger/kernel';
import type { AttachHandleView, DeployableView, DeviceView } from '@ledger/projections/inventory';
import { allPages } from '../support/all-pages';
import { CliError } from '../support/cli-error';
import type { LedgerApiClient } from '../support/ledger-api-client';

/** A device named by its uuid, or by a PCI address on a host (a device's, or one of its VFs'). */
export type DeviceReference = { readonly uuid: string } | { readonly pciAddress: string; readonly hostname: string };

/** What an attach or detach job needs to know of its device. */
export interface ResolvedDevice {
  readonly deviceUuid: string;
  readonly hostname: string;
  /** The address the job acts on: the device's own, or a VF's. */
  readonly pciAddress: string;
}

/** `dddd:bb:dd.f` as the ledger takes it (wider domains included); `bb:dd.f` as lspci prints it means domain 0000. */
const PCI_ADDRESS = /^(?:([0-9a-f]{4,8}):)?([0-9a-f]{2}:[01][0-9a-f]\.[0-7])$/;

/** `<device-uuid>` or `<pci-address>@<host>`; anything else is a usage error (exit 2). */
export function parseDeviceReference(text: string): DeviceReference {
  const at = text.lastIndexOf('@');
  if (at < 0) {
    if (isUuid(text)) return { uuid: text.toLowerCase() };
    throw new CliError(`"${text}" is neither a device uuid nor PCI-ADDRESS@HOST (e.g. 0000:3b:00.0@compute-1)`, 2);
  }
  const address = PCI_ADDRESS.exec(text.slice(0, at).toLowerCase());
  const hostname = text.slice(at + 1);
  if (!address) throw new CliError(`"${text.slice(0, at)}" is not a PCI address (dddd:bb:dd.f, e.g. 0000:3b:00.0)`, 2);
  if (hostname === '') throw new CliError(`"${text}" names no host after the @`, 2);
  return { pciAddress: `${address[1] ?? '0000'}:${address[2]}`, hostname };
}

/**
 * The device's host and address from the inventory: by uuid one read; by
 * address the host's devices, then (for a VF) its deployables' PCI and VF
 * attach handles. Unknown hosts and devices exit 1 with the ledger's code.
 */
export async function resolveDevice(client: Pick<LedgerApiClient, 'request'>, reference: DeviceReference): Promise<ResolvedDevice> {
  if ('uuid' in reference) {
    const device = await client.request<DeviceView>('GET', `/api/v1/devices/${reference.uuid}`);
    return { deviceUuid: device.uuid, hostname: device.hostname, pciAddress: device.pciAddress };
  }
  const { hostname, pciAddress } = reference;
  const host = encodeURIComponent(hostname);
  // The host first, so an unknown one answers INVENTORY.HOST_NOT_FOUND rather than "no such device".
  await client.request('GET', `/api/v1/hosts/${host}`);
  const device = (await allPages<DeviceView>(client, `/api/v1/devices?hostname=${host}`)).find((candidate) => candidate.pciAddress === pciAddress);
  if (device) return { deviceUuid: device.uuid, hostname, pciAddress };
  for (const deployable of await allPages<DeployableView>(client, `/api/v1/deployables?hostname=${host}`)) {
    const { attachHandles } = await client.request<{ attachHandles: AttachHandleView[] }>('GET', `/api/v1/deployables/${deployable.uuid}`);
    const handle = attachHandles.find((candidate) => candidate.kind !== 'MDEV' && candidate.address === pciAddress);
    if (handle) return { deviceUuid: handle.deviceUuid, hostname, pciAddress };
  }
  throw new CliError(`INVENTORY.DEVICE_NOT_FOUND: host ${hostname} reports no device or VF at ${pciAddress}`, 1);
}
