import type { BitstreamData, BitstreamEvent } from './programming.events';

/** One image's life on `bitstream-<id>`. */
export type BitstreamState =
  | { readonly status: 'none' }
  | { readonly status: 'registered'; readonly bitstream: BitstreamData }
  | { readonly status: 'retired'; readonly bitstream: BitstreamData; readonly retiredAt: string };

export const initialBitstreamState = (): BitstreamState => ({ status: 'none' });

export function evolveBitstream(state: BitstreamState, event: BitstreamEvent): BitstreamState {
  switch (event.type) {
    case 'programming.BitstreamRegistered':
      return { status: 'registered', bitstream: event.data };
    case 'programming.BitstreamRetired':
      return state.status === 'none' ? state : { status: 'retired', bitstream: state.bitstream, retiredAt: event.data.retiredAt };
    default:
      return state;
  }
}
