import { resolve } from 'node:path';
import { booleanSetting, type Env, nonEmpty } from './env-values';

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
}

export function loadBitstreamConfig(env: Env, dataDir: string, cwd: string): BitstreamConfig {
  const dir = nonEmpty(env.LEDGER_BITSTREAM_DIR);
  return {
    allowUnsigned: booleanSetting(env, 'LEDGER_BITSTREAM_ALLOW_UNSIGNED', false),
    contentDir: dir === undefined ? resolve(dataDir, 'bitstreams') : resolve(cwd, dir),
  };
}
