import { parseFpgaProgramSettings, type FpgaProgramSettings } from '../fpga/fpga-program.settings';

/** `xilinx-fpga` settings: `xbmgmtPath` (XRT's `/opt/xilinx/xrt/bin/xbmgmt`), `programTimeoutSeconds` (1800: flashing a shell is slow), `bitstreamCacheDir`, `maxImageBytes`. */
export type XilinxFpgaSettings = FpgaProgramSettings;

export const parseXilinxFpgaSettings = (raw: unknown, workDir: string): XilinxFpgaSettings =>
  parseFpgaProgramSettings(raw, 'xilinx-fpga', workDir, { key: 'xbmgmtPath', fallback: '/opt/xilinx/xrt/bin/xbmgmt', timeoutSeconds: 1800 });
