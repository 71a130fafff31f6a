import { bitstreamIdOf } from './bitstream-id';
import { bitstreamOriginOf } from './bitstream-origin';
import type { RegisterBitstream } from './bitstream.commands';
import type { BitstreamState } from './bitstream.state';
import { BitstreamDuplicateError, BitstreamInvalidError, BitstreamUnsignedError, SignatureInvalidError } from './programming.errors';
import type { BitstreamRegistered } from './programming.events';

/** An image's sha256 as the registry keeps it: 64 lower-case hex digits. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;
/** As agents read a function back (AFU id / logic uuid): 32 hex digits. */
const FUNCTION_ID = /^[0-9a-f]{32}$/;
/** A PR interface id (hex, uuid) or a shell name (xilinx_u250_gen3x16_xdma_shell_4_1). */
const INTERFACE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const VENDOR = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,63}$/;
const NAME = /^[^\x00-\x1f\x7f]{1,255}$/u;

/**
 * The policy: a signature that does not verify is refused always; an
 * unsigned image only where the command says unsigned images are allowed;
 * the same bytes twice are refused (the id is derived from them), whether
 * stored or at an origin URL.
 */
export function decideRegisterBitstream(command: RegisterBitstream, state: BitstreamState): BitstreamRegistered[] {
  const sha256 = matching(command.sha256?.toLowerCase(), SHA256_HEX, 'sha256', 'must be 64 hex digits');
  const bitstreamId = bitstreamIdOf(sha256);
  if (state.status !== 'none') throw new BitstreamDuplicateError(bitstreamId, sha256, state.status);
  if (!Number.isSafeInteger(command.sizeBytes) || command.sizeBytes < 1) throw new BitstreamInvalidError('sizeBytes', 'must be a positive integer');
  const functionId = matching(command.functionId?.replace(/-/g, '').toLowerCase(), FUNCTION_ID, 'functionId', 'must be 32 hex digits (a uuid, dashes optional)');
  const interfaceId = matching(command.interfaceId, INTERFACE_ID, 'interfaceId', 'must be 1–128 letters, digits or ._:- (a PR interface id or shell name)');
  const vendor = matching(command.vendor, VENDOR, 'vendor', 'must be 1–64 letters, digits, spaces or ._-');
  const name = command.name === null ? null : matching(command.name, NAME, 'name', 'must be 1–255 characters without control characters');
  const origin = bitstreamOriginOf(sha256, command.originUrl);
  const { signature } = command;
  if (signature.verdict === 'invalid') throw new SignatureInvalidError(sha256, signature.reason, signature.keyId);
  if (signature.verdict === 'unsigned' && !command.allowUnsigned) throw new BitstreamUnsignedError(sha256);
  return [
    {
      type: 'programming.BitstreamRegistered',
      data: {
        bitstreamId,
        sha256,
        sizeBytes: command.sizeBytes,
        functionId,
        interfaceId,
        vendor,
        name,
        origin,
        signature,
        registeredAt: command.registeredAt,
      },
    },
  ];
}

function matching(value: unknown, pattern: RegExp, path: string, reason: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw new BitstreamInvalidError(path, reason);
  return value;
}
