import type { BitstreamDescription } from './programming.events';

/**
 * Registers an image. The application layer has hashed and stored the
 * bytes and checked the signature; the decider applies the policy.
 */
export interface RegisterBitstream extends BitstreamDescription {
  readonly type: 'RegisterBitstream';
  /** LEDGER_BITSTREAM_ALLOW_UNSIGNED, as configured when the command was sent. */
  readonly allowUnsigned: boolean;
  readonly registeredAt: string;
}

export interface RetireBitstream {
  readonly type: 'RetireBitstream';
  readonly bitstreamId: string;
  readonly reason: string | null;
  readonly retiredAt: string;
}

export type BitstreamCommand = RegisterBitstream | RetireBitstream;
