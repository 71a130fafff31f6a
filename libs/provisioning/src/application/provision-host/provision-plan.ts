import { type EventStore, foldEvents } from '@ledger/eventstore';
import {
  deviceStream,
  evolveHostInventory,
  HostProvisioningError,
  hostProvisioningDecider,
  hostStream,
  initialHostInventoryState,
  InventoryErrorCodes,
  type HostInventoryEvent,
  type ShellProgrammed,
} from '@ledger/inventory';
import { bitstreamImageUrl, NotFoundError } from '@ledger/kernel';
import {
  BitstreamNotFoundError,
  type BitstreamData,
  type BitstreamEvent,
  type BitstreamState,
  bitstreamDecider,
  bitstreamStream,
  mayBeLoaded,
  SIGNING_KEYS_STREAM,
  type SignatureStanding,
  type SigningKeyEvent,
  signatureStanding,
  signingKeysDecider,
} from '@ledger/programming';
import { DeviceRequiredError, NoFpgaError, ProvisionDeviceNotFoundError, ShellBitstreamRetiredError, ShellBitstreamUntrustedError } from '../../domain/provisioning.errors';
import type { ProvisionStart, ShellImage } from './provision-workflow';

/**
 * Everything a provisioning checks before it starts, read from the streams
 * that decide it (not the read models, which may lag): the shell bitstream
 * (live, and trusted by the rule every load follows: mayBeLoaded), the host
 * (reported, not being provisioned), its FPGA, and the registered shell the
 * FPGA last held, which the undo loads back while it may still be loaded.
 */
export async function planProvisioning(
  store: EventStore,
  request: { readonly hostname: string; readonly shell: string; readonly vfs: number; readonly device?: string },
  provisionId: string,
  allowUnsigned: boolean,
): Promise<ProvisionStart> {
  const bitstream = await bitstreamState(store, request.shell);
  if (bitstream.status === 'none') throw new BitstreamNotFoundError(request.shell);
  if (bitstream.status === 'retired') throw new ShellBitstreamRetiredError(request.shell);
  const standingOf = await signatureStandings(store);
  const standing = standingOf(bitstream.bitstream);
  if (!mayBeLoaded(standing, allowUnsigned)) throw new ShellBitstreamUntrustedError(request.shell, standing.verdict);
  const hostEvents = (await store.readStream(hostStream(request.hostname))) as unknown as HostInventoryEvent[];
  const host = foldEvents({ evolve: evolveHostInventory }, initialHostInventoryState(), hostEvents);
  if (host.hostname === null) {
    throw new NotFoundError(InventoryErrorCodes.HOST_NOT_FOUND, `host ${request.hostname} has never reported: start its agent first`, { hostname: request.hostname });
  }
  const provisioning = foldEvents(hostProvisioningDecider, hostProvisioningDecider.initialState(), hostEvents);
  if (provisioning.running !== null) throw new HostProvisioningError(request.hostname, provisioning.running);
  const fpgas = [...host.devices.values()].map((known) => known.snapshot).filter((device) => device.type === 'FPGA');
  const device = pickFpga(request.hostname, fpgas, request.device?.toLowerCase());
  const { bitstreamId, sha256, interfaceId, origin } = bitstream.bitstream;
  return {
    provisionId,
    hostname: host.hostname,
    device: { uuid: device.uuid, pciAddress: device.pciAddress },
    shell: { bitstreamId, sha256, interfaceId, url: bitstreamImageUrl(bitstreamId, origin) },
    previousShell: await lastShell(store, device.uuid, (shell) => mayBeLoaded(standingOf(shell), allowUnsigned)),
    vfs: request.vfs,
  };
}

function pickFpga<Device extends { readonly uuid: string }>(hostname: string, fpgas: readonly Device[], named: string | undefined): Device {
  if (named !== undefined) {
    const found = fpgas.find((device) => device.uuid === named);
    if (!found) throw new ProvisionDeviceNotFoundError(hostname, named);
    return found;
  }
  if (fpgas.length === 0) throw new NoFpgaError(hostname);
  if (fpgas.length > 1) throw new DeviceRequiredError(hostname, fpgas.map((device) => device.uuid));
  return fpgas[0];
}

/**
 * The registered shell of the device's last recorded shell load; null when
 * none is known (never loaded by the ledger, or an image it has no record
 * of) or when it may no longer be loaded (its key revoked since).
 */
async function lastShell(store: EventStore, deviceUuid: string, loadable: (shell: BitstreamData) => boolean): Promise<ShellImage | null> {
  const loads = (await store.readStream(deviceStream(deviceUuid))).filter((event) => event.type === 'inventory.ShellProgrammed');
  const last = loads.at(-1)?.data as ShellProgrammed['data'] | undefined;
  if (!last?.bitstreamId || !last.sha256) return null;
  const registered = await bitstreamState(store, last.bitstreamId);
  if (registered.status === 'none' || !loadable(registered.bitstream)) return null;
  return { bitstreamId: last.bitstreamId, sha256: last.sha256, url: bitstreamImageUrl(last.bitstreamId, registered.bitstream.origin) };
}

/** A bitstream as its own stream says (the url a shell job names depends on where its bytes are). */
async function bitstreamState(store: EventStore, bitstreamId: string): Promise<BitstreamState> {
  return foldEvents(bitstreamDecider, bitstreamDecider.initialState(), (await store.readStream(bitstreamStream(bitstreamId))) as unknown as BitstreamEvent[]);
}

/** Signatures against the keys the `signing-keys` stream trusts now. */
async function signatureStandings(store: EventStore): Promise<(bitstream: BitstreamData) => SignatureStanding> {
  const keys = foldEvents(signingKeysDecider, signingKeysDecider.initialState(), (await store.readStream(SIGNING_KEYS_STREAM)) as unknown as SigningKeyEvent[]);
  const trustedKeyIds = new Set(keys.trusted.keys());
  return (bitstream) => signatureStanding(bitstream.signature, trustedKeyIds);
}
