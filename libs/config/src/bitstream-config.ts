import { resolve } from 'node:path';
import { booleanSetting, type Env, integerSetting, nonEmpty } from './env-values';

/** Bitstream registration (libs/programming). */
export interface BitstreamConfig {
  /**
   * LEDGER_BITSTREAM_ALLOW_UNSIGNED (false): register images that carry no
   * signature (recorded with the verdict `unsigned`). A signature that does
   * not verify is refused whatever this says.
   */
  readonly allowUnsigned: boolean;
  /** LEDGER_BITSTREAM_DIR (<data dir>/bitstreams): where image bytes are kept, one file per sha256. */
  readonly contentDir: string;
  /**
   * LEDGER_BITSTREAM_ORIGIN_MAX_BYTES (1 GiB): the largest image registered
   * by origin URL. The ledger holds the bytes in memory once while it checks
   * an Ed25519 signature, which node:crypto verifies over the whole message.
   */
  readonly originMaxBytes: number;
  /** LEDGER_BITSTREAM_ORIGIN_TIMEOUT_MS (120000): how long reading an origin URL may take, connection to last byte. */
  readonly originTimeoutMs: number;
}

export function loadBitstreamConfig(env: Env, dataDir: string, cwd: string): BitstreamConfig {
  const dir = nonEmpty(env.LEDGER_BITSTREAM_DIR);
  return {
    allowUnsigned: booleanSetting(env, 'LEDGER_BITSTREAM_ALLOW_UNSIGNED', false),
    contentDir: dir === undefined ? resolve(dataDir, 'bitstreams') : resolve(cwd, dir),
    originMaxBytes: integerSetting(env, 'LEDGER_BITSTREAM_ORIGIN_MAX_BYTES', 1024 ** 3, 1, 4 * 1024 ** 3),
    originTimeoutMs: integerSetting(env, 'LEDGER_BITSTREAM_ORIGIN_TIMEOUT_MS', 120_000, 100, 3_600_000),
  };
}
