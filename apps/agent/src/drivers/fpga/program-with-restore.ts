import type { DiscoveryLogger } from '../../discovery/discovery-logger';
import { DriverOperationError, type JobEvidence } from '../accelerator-driver';
import { DRIVER_ERROR_CODES } from '../driver-errors';
import type { ImageParam } from '../job-params';
import { describeCommandFailure, type CommandResult } from '../run-command';
import type { BitstreamCache } from './bitstream-cache';
import { downloadImage } from './image-download';

/** One FPGA (region) as programming sees it: its loaded function, and the vendor tool that loads an image. */
export interface FpgaTarget {
  /** The vendor tool's name, for messages (`fpgaconf`, `xbmgmt`). */
  readonly tool: string;
  /** What the loaded function is called in messages (`AFU`, `logic uuid`). */
  readonly functionLabel: string;
  /** The loaded function's id (32 lower-case hex), null when blank or unreadable. */
  readFunctionId(): Promise<string | null>;
  load(imagePath: string): Promise<CommandResult>;
}

export interface ProgramOptions {
  readonly fetch: typeof fetch;
  /** Told when a programmed image could not be cached: the program still succeeded. */
  readonly logger: DiscoveryLogger;
  /** Where the image is downloaded to (removed afterwards). */
  readonly downloadDir: string;
  readonly cache: BitstreamCache;
  readonly maxImageBytes?: number;
}

/**
 * download → verify SHA-256 → load → read the function back. Evidence:
 * `{functionId, sha256, previousFunctionId}`. A verified image is cached
 * under the function it loaded. When loading fails, the previous function
 * is loaded again from the cache if it is there; either way the error says
 * what the device holds now, read back, not assumed.
 */
export async function programWithRestore(target: FpgaTarget, image: ImageParam, options: ProgramOptions): Promise<JobEvidence> {
  const previousFunctionId = await target.readFunctionId();
  const downloaded = await downloadImage(options.fetch, image, options.downloadDir, options.maxImageBytes);
  try {
    const result = await target.load(downloaded.path);
    if (result.exitCode === 0 && !result.timedOut) {
      const functionId = await target.readFunctionId();
      if (functionId === null) {
        throw new DriverOperationError(
          DRIVER_ERROR_CODES.verifyFailed,
          `${target.tool} reported success but no ${target.functionLabel} can be read back`,
          `${target.functionLabel} unreadable`,
          { functionId: null, sha256: downloaded.sha256, previousFunctionId },
        );
      }
      await options.cache.store(functionId, downloaded.path).catch((error: unknown) =>
        options.logger.warn(`${target.tool}: could not cache the image of function ${functionId} (${(error as Error)?.message ?? error}); a later failed program cannot restore it`),
      );
      return { functionId, sha256: downloaded.sha256, previousFunctionId };
    }
    const { deviceState, functionId, restored } = await restorePrevious(target, previousFunctionId, options.cache);
    throw new DriverOperationError(DRIVER_ERROR_CODES.toolFailed, describeCommandFailure(target.tool, result), deviceState, {
      functionId,
      previousFunctionId,
      restored,
      sha256: downloaded.sha256,
      toolOutput: tail(result.stderr || result.stdout),
    });
  } finally {
    await downloaded.remove();
  }
}

async function restorePrevious(
  target: FpgaTarget,
  previous: string | null,
  cache: BitstreamCache,
): Promise<{ deviceState: string; functionId: string | null; restored: boolean }> {
  const now = await target.readFunctionId();
  const label = target.functionLabel;
  if (now !== null && now === previous) return { deviceState: `previous function ${previous} still loaded`, functionId: now, restored: false };
  if (previous === null) return { deviceState: `${label} reads ${now ?? 'blank'}; nothing was loaded before`, functionId: now, restored: false };
  if (!(await cache.has(previous))) {
    return { deviceState: `${label} reads ${now ?? 'blank'}; previous function ${previous} not restored (no cached image)`, functionId: now, restored: false };
  }
  await target.load(cache.pathFor(previous));
  const after = await target.readFunctionId();
  if (after === previous) return { deviceState: `previous function ${previous} restored`, functionId: after, restored: true };
  return { deviceState: `${label} reads ${after ?? 'blank'}; restoring previous function ${previous} failed`, functionId: after, restored: false };
}

const tail = (text: string): string => (text.length > 2000 ? text.slice(-2000) : text).trim();
