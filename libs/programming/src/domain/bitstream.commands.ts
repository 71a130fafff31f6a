import type { BitstreamDescription } from './programming.events';

/**
 * Registers an image. The application layer has hashed and stored the
 * bytes (or read them from their origin URL) and checked the signature;
 * the decider applies the policy.
 */
export interface RegisterBitstream extends BitstreamDescription {
  readonly type: 'RegisterBitstream';
  /** LEDGER_BITSTREAM_ALLOW_UNSIGNED, as configured when the command was sent. */
  readonly allowUnsigned: boolean;
  /** The http(s) URL the bytes were read from and stay at; null: the ledger stored them. */
  readonly originUrl: string | null;
  readonly registeredAt: string;
}

export interface RetireBitstream {
  readonly type: 'RetireBitstream';
  readonly bitstreamId: string;
  readonly reason: string | null;
  readonly retiredAt: string;
}

export type BitstreamCommand = RegisterBitstream | RetireBitstream;
