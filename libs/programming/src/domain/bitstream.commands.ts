import type { SignatureVerdict } from './signature-verdict';

/**
 * Registers an image. The application layer has hashed and stored the
 * bytes and checked the signature; the decider applies the policy.
 */
export interface RegisterBitstream {
  readonly type: 'RegisterBitstream';
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly functionId: string;
  readonly interfaceId: string;
  readonly vendor: string;
  readonly name: string | null;
  readonly signature: SignatureVerdict;
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
