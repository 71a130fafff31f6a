import type { DomainEvent } from '@ledger/kernel';
import type { SignatureVerdict } from './signature-verdict';

/** Event type names of the programming context. */
export const ProgrammingEventTypes = {
  BitstreamRegistered: 'programming.BitstreamRegistered',
  BitstreamRetired: 'programming.BitstreamRetired',
  SigningKeyTrusted: 'programming.SigningKeyTrusted',
  SigningKeyRevoked: 'programming.SigningKeyRevoked',
} as const;

export type ProgrammingEventType = (typeof ProgrammingEventTypes)[keyof typeof ProgrammingEventTypes];

/** Schema version of each event type's data (upcast older versions on read). */
export const PROGRAMMING_EVENT_SCHEMA_VERSIONS: Readonly<Record<ProgrammingEventType, number>> = {
  'programming.BitstreamRegistered': 1,
  'programming.BitstreamRetired': 1,
  'programming.SigningKeyTrusted': 1,
  'programming.SigningKeyRevoked': 1,
};

/** Every programming event type, for processor `handles` lists. */
export const PROGRAMMING_EVENT_TYPES: readonly ProgrammingEventType[] = Object.values(ProgrammingEventTypes);

/**
 * Where the image's bytes are: stored by the ledger, content-addressed by
 * sha256 under its data directory; or at an http(s) URL in an image store,
 * which the ledger read once to check them and does not keep (events before
 * url origins existed all say `stored`).
 */
export type BitstreamOrigin =
  | {
      readonly kind: 'stored';
      /** `sha256:<hex>`: the content's address in the ledger's bitstream store. */
      readonly ref: string;
    }
  | {
      readonly kind: 'url';
      /** The http(s) URL agents fetch the image from (and check against its sha256). */
      readonly ref: string;
    };

/** What describes an image, wherever it is named: the command that registers it, the event, the read model. */
export interface BitstreamDescription {
  /** 64 lower-case hex digits of the image bytes. */
  readonly sha256: string;
  readonly sizeBytes: number;
  /** The function (AFU / logic uuid) the image loads, 32 lower-case hex digits as the agent reads it back. */
  readonly functionId: string;
  /** The shell / FPGA interface the image needs loaded underneath (PR interface id). */
  readonly interfaceId: string;
  readonly vendor: string;
  /** An operator's name for it, or null. */
  readonly name: string | null;
  readonly signature: SignatureVerdict;
}

export interface BitstreamData extends BitstreamDescription {
  readonly bitstreamId: string;
  readonly origin: BitstreamOrigin;
  readonly registeredAt: string;
}

/** An image was accepted: signed by a trusted key, or unsigned where policy allowed it. */
export type BitstreamRegistered = DomainEvent<'programming.BitstreamRegistered', BitstreamData>;

/** The image may no longer be programmed; its record (and provenance naming it) stays. */
export type BitstreamRetired = DomainEvent<
  'programming.BitstreamRetired',
  { readonly bitstreamId: string; readonly sha256: string; readonly reason: string | null; readonly retiredAt: string }
>;

export type BitstreamEvent = BitstreamRegistered | BitstreamRetired;

export type SigningKeyAlgorithm = 'ed25519' | 'rsa-pss-sha256' | 'ecdsa-p256-sha256';

/** An operator trusts a public key to sign images. `keyId` is the sha256 of the key's SPKI DER. */
export type SigningKeyTrusted = DomainEvent<
  'programming.SigningKeyTrusted',
  {
    readonly keyId: string;
    readonly algorithm: SigningKeyAlgorithm;
    /** The key as SPKI PEM, normalised. */
    readonly publicKeyPem: string;
    readonly label: string | null;
    readonly trustedAt: string;
  }
>;

/** Images are no longer accepted on this key's signature; images registered before stay registered. */
export type SigningKeyRevoked = DomainEvent<'programming.SigningKeyRevoked', { readonly keyId: string; readonly revokedAt: string }>;

export type SigningKeyEvent = SigningKeyTrusted | SigningKeyRevoked;

export type ProgrammingEvent = BitstreamEvent | SigningKeyEvent;
