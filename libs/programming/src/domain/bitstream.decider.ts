import type { Decider } from '@ledger/kernel';
import type { BitstreamCommand } from './bitstream.commands';
import { evolveBitstream, initialBitstreamState, type BitstreamState } from './bitstream.state';
import { BitstreamInvalidError } from './programming.errors';
import type { BitstreamEvent } from './programming.events';
import { decideRegisterBitstream } from './register-bitstream';
import { decideRetireBitstream } from './retire-bitstream';

/** One image (stream `bitstream-<id>`, the id derived from its sha256): registered, then maybe retired. */
export const bitstreamDecider: Decider<BitstreamCommand, BitstreamState, BitstreamEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'RegisterBitstream':
        return decideRegisterBitstream(command, state);
      case 'RetireBitstream':
        return decideRetireBitstream(command, state);
      default:
        throw new BitstreamInvalidError('type', 'is not a bitstream command');
    }
  },
  evolve: evolveBitstream,
  initialState: initialBitstreamState,
};
