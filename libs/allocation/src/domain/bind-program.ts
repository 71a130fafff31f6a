import { bitstreamImageUrl } from '@ledger/kernel';
import { BindBitstreamError } from './arq.errors';
import type { DeviceShell } from './device-shell';
import { normalizeHexId } from './fpga-id';

/** What a profile group asks to be loaded into the region a bind gets (CYBORG-V2.md §4.3: Cyborg's bind path). */
export type ProgramRequest = { readonly by: 'bitstream'; readonly bitstreamId: string } | { readonly by: 'function'; readonly functionId: string };

/** A registered bitstream, as a bind chooses among them. */
export interface BindableBitstream {
  readonly bitstreamId: string;
  readonly sha256: string;
  /** Where its bytes are: stored by the ledger, or at an http(s) URL (`ref`). */
  readonly origin: { readonly kind: 'stored' | 'url'; readonly ref: string };
  readonly functionId: string;
  readonly interfaceId: string;
  readonly retired: boolean;
  /** Its signature verified with a key still trusted, or it is unsigned while the ledger allows unsigned images. */
  readonly trusted: boolean;
}

/** The region a provider's bind would program, as the inventory knows it. */
export interface ProgrammableRegion {
  readonly pciAddress: string;
  /** The shell the device runs (deviceShellOf): a bitstream must be built for one of its interface ids. */
  readonly shell: DeviceShell;
  /** The registered bitstream the region holds now, or null when none is known (an undo loads it back only while it is trusted). */
  readonly holds: BindableBitstream | null;
}

/** An image as a program job names it: the agent fetches `url` (a ledger path, with its own credential, or the image's origin URL) and checks `sha256`. */
export interface ProgramImage {
  readonly bitstreamId: string;
  readonly sha256: string;
  readonly url: string;
}

/** The bitstream a profile's group names, resolved when the bind was planned, and the region it goes to. */
export interface BindProgram extends ProgramImage {
  readonly functionId: string;
  readonly pciAddress: string;
  /** Set when the profile asked for a function: the function id the agent reads back must be this one. */
  readonly expectedFunctionId: string | null;
  /** What the region held when the bind was planned: the undo loads it back (null: nothing known, or nothing trusted, to restore). */
  readonly previous: ProgramImage | null;
}

/**
 * The profile group's `accel:bitstream_id` / `accel:function_id` (a group
 * never has both: the profile refuses it). Only an FPGA request programs
 * anything, as in Cyborg; other classes ignore the keys.
 */
export function programRequestOf(resourceClass: string, accel: Readonly<Record<string, string>> | undefined): ProgramRequest | null {
  if (resourceClass !== 'FPGA' || !accel) return null;
  if (accel['accel:bitstream_id'] !== undefined) return { by: 'bitstream', bitstreamId: accel['accel:bitstream_id'].toLowerCase() };
  if (accel['accel:function_id'] !== undefined) return { by: 'function', functionId: normalizeHexId(accel['accel:function_id']) };
  return null;
}

/**
 * Picks the image a bind loads. By id: that bitstream, which must be
 * registered, live, trusted and built for the device's shell (the one the
 * ledger loaded there, else the one the device reports). By function:
 * the newest bitstream with that function id that is all of those. The
 * region already holding the chosen image is programmed all the same: the
 * agent's read-back is the evidence the function is there. Throws
 * BindBitstreamError (409) with a stable code otherwise.
 */
export function resolveBindProgram(request: ProgramRequest, candidates: readonly BindableBitstream[], region: ProgrammableRegion): BindProgram {
  const chosen = request.by === 'bitstream' ? chosenById(request.bitstreamId, candidates, region) : chosenByFunction(request.functionId, candidates, region);
  return {
    ...programImage(chosen),
    functionId: chosen.functionId,
    pciAddress: region.pciAddress,
    expectedFunctionId: request.by === 'function' ? request.functionId : null,
    // An image no longer trusted is not loaded back, not even to undo: the region then keeps the new one.
    previous: region.holds?.trusted ? programImage(region.holds) : null,
  };
}

function chosenById(bitstreamId: string, candidates: readonly BindableBitstream[], region: ProgrammableRegion): BindableBitstream {
  const bitstream = candidates.find((candidate) => candidate.bitstreamId === bitstreamId);
  if (!bitstream) throw new BindBitstreamError('BITSTREAM_UNKNOWN', `accel:bitstream_id ${bitstreamId} names no registered bitstream`, { bitstreamId });
  if (bitstream.retired) throw new BindBitstreamError('BITSTREAM_RETIRED', `Bitstream ${bitstreamId} is retired`, { bitstreamId });
  if (!bitstream.trusted) {
    throw new BindBitstreamError('BITSTREAM_UNTRUSTED', `Bitstream ${bitstreamId} is not signed by a trusted key, and the ledger refuses unverified images`, { bitstreamId });
  }
  if (!fits(bitstream, region)) {
    throw new BindBitstreamError('BITSTREAM_INCOMPATIBLE', `Bitstream ${bitstreamId} needs interface ${bitstream.interfaceId}; the device's shell is ${shellText(region.shell)}`, {
      bitstreamId,
      interfaceId: bitstream.interfaceId,
      deviceInterfaceId: region.shell.interfaceIds.join(','),
      shellSource: region.shell.source,
    });
  }
  return bitstream;
}

function chosenByFunction(functionId: string, candidates: readonly BindableBitstream[], region: ProgrammableRegion): BindableBitstream {
  const usable = candidates.filter((candidate) => candidate.functionId === functionId && !candidate.retired && candidate.trusted && fits(candidate, region));
  const newest = usable.at(-1);
  if (!newest) {
    throw new BindBitstreamError(
      'NO_BITSTREAM_FOR_FUNCTION',
      `No live, trusted bitstream with function ${functionId}${region.shell.interfaceIds.length > 0 ? ` fits the device's shell ${shellText(region.shell)}` : ' is registered'}`,
      { functionId, deviceInterfaceId: region.shell.interfaceIds.join(',') || null, shellSource: region.shell.source },
    );
  }
  return newest;
}

const fits = (bitstream: BindableBitstream, region: ProgrammableRegion): boolean =>
  region.shell.interfaceIds.length === 0 || region.shell.interfaceIds.includes(normalizeHexId(bitstream.interfaceId));

const shellText = (shell: DeviceShell): string => `${shell.interfaceIds.join(', ')} (${shell.source === 'loaded' ? 'loaded by the ledger' : 'as the device reports it'})`;

const programImage = (bitstream: BindableBitstream): ProgramImage => ({
  bitstreamId: bitstream.bitstreamId,
  sha256: bitstream.sha256,
  url: bitstreamImageUrl(bitstream.bitstreamId, bitstream.origin),
});
