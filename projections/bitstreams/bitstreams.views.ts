import type { BitstreamDescription, BitstreamOrigin, SignatureStanding, SigningKeyAlgorithm } from '@ledger/programming';

export interface BitstreamView extends Omit<BitstreamDescription, 'signature'> {
  readonly bitstreamId: string;
  /** The verdict recorded at registration as it stands now: `revoked` while the key that signed it is revoked (signatureStanding). */
  readonly signature: SignatureStanding;
  /** Where the bytes are: stored by the ledger (`sha256:<hex>`) or at an http(s) URL. */
  readonly origin: BitstreamOrigin;
  readonly state: 'registered' | 'retired';
  readonly registeredAt: string;
  readonly registeredBy: string;
  readonly retiredAt: string | null;
  readonly retireReason: string | null;
}

export interface SigningKeyView {
  readonly keyId: string;
  readonly algorithm: SigningKeyAlgorithm;
  readonly publicKeyPem: string;
  readonly label: string | null;
  readonly state: 'trusted' | 'revoked';
  readonly trustedAt: string;
  readonly revokedAt: string | null;
}

/** One load of a region: which image, when, by which job (and the correlation of the workflow or request that asked), for whom. */
export interface ProvenanceEntry {
  readonly deployableUuid: string;
  /** The region's name on a multi-region device; null when the device is one region. */
  readonly region: string | null;
  /** The registered bitstream: named by the job, or found by the sha256 the agent loaded; null for an image the ledger does not know. */
  readonly bitstreamId: string | null;
  readonly sha256: string | null;
  readonly functionId: string | null;
  readonly previousFunctionId: string | null;
  readonly loadedAt: string;
  readonly jobId: string;
  readonly hostname: string;
  /** The correlation id of the request or workflow that asked for the job. */
  readonly correlationId: string;
  readonly project: string | null;
  readonly requestedBy: string;
}
