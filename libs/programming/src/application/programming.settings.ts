/** What the programming context is configured with (from LEDGER_BITSTREAM_* in @ledger/config). */
export interface ProgrammingSettings {
  /** LEDGER_BITSTREAM_ALLOW_UNSIGNED: register images that carry no signature (recorded as `unsigned`). */
  readonly allowUnsigned: boolean;
  /** LEDGER_BITSTREAM_DIR: where image bytes are stored, by sha256. */
  readonly contentDir: string;
  /** LEDGER_BITSTREAM_ORIGIN_MAX_BYTES: the largest image registered by origin URL. */
  readonly originMaxBytes: number;
  /** LEDGER_BITSTREAM_ORIGIN_TIMEOUT_MS: how long reading an origin URL may take. */
  readonly originTimeoutMs: number;
}

/** Nest token of the ProgrammingSettings. */
export const PROGRAMMING_SETTINGS = Symbol('PROGRAMMING_SETTINGS');
