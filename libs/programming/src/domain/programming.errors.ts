import { ConflictError, NotFoundError, ValidationError } from '@ledger/kernel';

/** Stable error codes of the programming context (docs/errors.md). */
export const ProgrammingErrorCodes = {
  /** A member of a bitstream or key request breaks a rule; `facts.path` names it (400). */
  INVALID: 'BITSTREAM.INVALID',
  /** The detached signature does not verify with the named or any trusted key (400). */
  SIGNATURE_INVALID: 'BITSTREAM.SIGNATURE_INVALID',
  /** No signature, and LEDGER_BITSTREAM_ALLOW_UNSIGNED is off (400). */
  UNSIGNED: 'BITSTREAM.UNSIGNED',
  /** These bytes (same sha256) are registered already, or were and are retired (409). */
  DUPLICATE: 'BITSTREAM.DUPLICATE',
  /** No bitstream with this id (404). */
  NOT_FOUND: 'BITSTREAM.NOT_FOUND',
  /** The signing key named is not trusted (never, or revoked) (404). */
  KEY_UNKNOWN: 'BITSTREAM.KEY_UNKNOWN',
  /** A PEM that is no public key of a supported kind (Ed25519, RSA, ECDSA P-256) (400). */
  KEY_INVALID: 'BITSTREAM.KEY_INVALID',
  /** An origin URL that is not http(s), carries credentials or is too long (400). */
  ORIGIN_INVALID: 'BITSTREAM.ORIGIN_INVALID',
  /** The origin URL could not be read: unreachable, an error status, too slow (400). */
  ORIGIN_UNAVAILABLE: 'BITSTREAM.ORIGIN_UNAVAILABLE',
  /** The bytes at the origin URL are not the declared ones: another sha256 or size (400). */
  ORIGIN_MISMATCH: 'BITSTREAM.ORIGIN_MISMATCH',
  /** The ledger keeps no bytes of a url-origin bitstream: fetch them from its origin (409). */
  CONTENT_AT_ORIGIN: 'BITSTREAM.CONTENT_AT_ORIGIN',
} as const;

/** Input that breaks a rule; nothing was recorded. */
export class BitstreamInvalidError extends ValidationError {
  constructor(path: string, reason: string) {
    super(ProgrammingErrorCodes.INVALID, `bitstream: ${path} ${reason}`, { path, reason });
  }
}

export class SignatureInvalidError extends ValidationError {
  constructor(sha256: string, reason: string, keyId?: string) {
    super(ProgrammingErrorCodes.SIGNATURE_INVALID, `the signature of image ${sha256} is refused: ${reason}`, {
      sha256,
      reason,
      ...(keyId === undefined ? {} : { keyId }),
    });
  }
}

export class BitstreamUnsignedError extends ValidationError {
  constructor(sha256: string) {
    super(ProgrammingErrorCodes.UNSIGNED, `image ${sha256} has no signature, and unsigned images are refused (LEDGER_BITSTREAM_ALLOW_UNSIGNED=false)`, {
      sha256,
    });
  }
}

export class BitstreamDuplicateError extends ConflictError {
  constructor(bitstreamId: string, sha256: string, status: 'registered' | 'retired') {
    super(ProgrammingErrorCodes.DUPLICATE, `image ${sha256} is ${status} already as bitstream ${bitstreamId}`, { bitstreamId, sha256, status });
  }
}

export class BitstreamNotFoundError extends NotFoundError {
  constructor(bitstreamId: string) {
    super(ProgrammingErrorCodes.NOT_FOUND, `bitstream ${bitstreamId} is not registered`, { bitstreamId });
  }
}

export class SigningKeyUnknownError extends NotFoundError {
  constructor(keyId: string) {
    super(ProgrammingErrorCodes.KEY_UNKNOWN, `signing key ${keyId} is not trusted`, { keyId });
  }
}

export class SigningKeyInvalidError extends ValidationError {
  constructor(reason: string) {
    super(ProgrammingErrorCodes.KEY_INVALID, `the public key is refused: ${reason}`, { reason });
  }
}

export class BitstreamOriginInvalidError extends ValidationError {
  constructor(reason: string) {
    super(ProgrammingErrorCodes.ORIGIN_INVALID, `bitstream: url ${reason}`, { path: 'url', reason });
  }
}

/** `url` is shown without its query, which may carry an image store's signature. */
export class BitstreamOriginUnavailableError extends ValidationError {
  constructor(url: string, reason: string) {
    super(ProgrammingErrorCodes.ORIGIN_UNAVAILABLE, `the image at ${url} could not be read: ${reason}`, { url, reason });
  }
}

export class BitstreamOriginMismatchError extends ValidationError {
  constructor(url: string, member: 'sha256' | 'sizeBytes', declared: string | number, actual: string | number) {
    super(ProgrammingErrorCodes.ORIGIN_MISMATCH, `the image at ${url} has ${member} ${actual}, not the declared ${declared}`, { url, member, declared, actual });
  }
}

export class BitstreamContentAtOriginError extends ConflictError {
  constructor(bitstreamId: string, url: string) {
    super(ProgrammingErrorCodes.CONTENT_AT_ORIGIN, `bitstream ${bitstreamId} is not stored by the ledger: fetch it from its origin ${url}`, { bitstreamId, url });
  }
}
