import type { RetireBitstream } from './bitstream.commands';
import type { BitstreamState } from './bitstream.state';
import { BitstreamInvalidError, BitstreamNotFoundError } from './programming.errors';
import type { BitstreamRetired } from './programming.events';

const MAX_REASON_LENGTH = 1024;

/** Retiring twice appends nothing (a retry after a lost answer is harmless). */
export function decideRetireBitstream(command: RetireBitstream, state: BitstreamState): BitstreamRetired[] {
  if (state.status === 'none') throw new BitstreamNotFoundError(command.bitstreamId);
  if (state.status === 'retired') return [];
  if (command.reason !== null && (typeof command.reason !== 'string' || command.reason.length === 0 || command.reason.length > MAX_REASON_LENGTH)) {
    throw new BitstreamInvalidError('reason', `must be a text of 1–${MAX_REASON_LENGTH} characters`);
  }
  const { bitstreamId, sha256 } = state.bitstream;
  return [{ type: 'programming.BitstreamRetired', data: { bitstreamId, sha256, reason: command.reason, retiredAt: command.retiredAt } }];
}
