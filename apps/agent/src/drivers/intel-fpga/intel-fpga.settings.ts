import { parseFpgaProgramSettings, type FpgaProgramSettings } from '../fpga/fpga-program.settings';

/** `intel-fpga` settings: `fpgaconfPath` (`fpgaconf` on the PATH), `programTimeoutSeconds` (600), `bitstreamCacheDir`, `maxImageBytes`, `defaultImage` (none). */
export type IntelFpgaSettings = FpgaProgramSettings;

export const parseIntelFpgaSettings = (raw: unknown, workDir: string): IntelFpgaSettings =>
  parseFpgaProgramSettings(raw, 'intel-fpga', workDir, { key: 'fpgaconfPath', fallback: 'fpgaconf', timeoutSeconds: 600 });
