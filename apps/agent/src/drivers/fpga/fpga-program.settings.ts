import { join } from 'node:path';
import { DriverSettings } from '../driver-settings';
import { DEFAULT_MAX_IMAGE_BYTES } from './image-download';

/** Settings every programmable FPGA driver shares. */
export interface FpgaProgramSettings {
  /** The vendor tool that loads an image. */
  readonly toolPath: string;
  /** Longest a program may take before the tool is stopped. */
  readonly programTimeoutSeconds: number;
  /** Verified images by function id, to restore the previous function after a failed program (`<workDir>/bitstreams`). */
  readonly bitstreamCacheDir: string;
  readonly maxImageBytes: number;
  /** The image a clean loads into a region a tenant held whole (a file on the host); unset: the region keeps its last function (default-image-step.ts). */
  readonly defaultImage?: string;
}

export function parseFpgaProgramSettings(
  raw: unknown,
  driver: string,
  workDir: string,
  tool: { readonly key: string; readonly fallback: string; readonly timeoutSeconds: number },
): FpgaProgramSettings {
  const settings = new DriverSettings(raw, driver);
  const parsed = {
    toolPath: settings.string(tool.key, tool.fallback),
    programTimeoutSeconds: settings.number('programTimeoutSeconds', tool.timeoutSeconds, 1, 86_400),
    bitstreamCacheDir: settings.string('bitstreamCacheDir', join(workDir, 'bitstreams')),
    maxImageBytes: settings.number('maxImageBytes', DEFAULT_MAX_IMAGE_BYTES, 1, Number.MAX_SAFE_INTEGER),
    defaultImage: settings.optionalString('defaultImage'),
  };
  settings.done();
  return parsed;
}
