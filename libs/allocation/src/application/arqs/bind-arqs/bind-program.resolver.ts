import { type BindProgram, programRequestOf, resolveBindProgram } from '../../../domain/bind-program';
import { deviceShellOf } from '../../../domain/device-shell';
import type { LiveArq } from '../../../domain/arq.state';
import type { AllocationDirectory, ProviderDescription } from '../allocation-directory.port';

/**
 * What the bind of `arq` to `provider` loads into the region, read from the
 * registry before anything is recorded: null when the profile names no
 * bitstream. Throws the refusal (BindBitstreamError) when it names one that
 * cannot be loaded.
 */
export async function bindProgramOf(directory: AllocationDirectory, arq: LiveArq, provider: ProviderDescription): Promise<BindProgram | null> {
  const request = programRequestOf(arq.resourceClass, arq.accel);
  if (!request) return null;
  const candidates =
    request.by === 'bitstream' ? [await directory.bitstream(request.bitstreamId)].filter((found) => found !== undefined) : await directory.bitstreamsOfFunction(request.functionId);
  // The undo loads back what the region holds, which it can only when the ledger has those bytes.
  const holds = provider.regionBitstreamId === null ? undefined : await directory.bitstream(provider.regionBitstreamId);
  return resolveBindProgram(request, candidates, { pciAddress: provider.pciAddress, shell: deviceShellOf(provider.shell), holds: holds ?? null });
}
