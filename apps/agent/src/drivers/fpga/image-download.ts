import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { DriverOperationError } from '../accelerator-driver';
import { DRIVER_ERROR_CODES, untouched } from '../driver-errors';
import type { ImageParam } from '../job-params';

export interface DownloadedImage {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
  remove(): Promise<void>;
}

/** Bitstreams and shells run to hundreds of MiB; anything past this is refused rather than filling the disk. */
export const DEFAULT_MAX_IMAGE_BYTES = 4 * 1024 ** 3;

/**
 * Fetches a job's image into `dir` while hashing it, and keeps it only if
 * its SHA-256 is the job's: nothing reaches a device unverified. Failures
 * are DriverOperationErrors with the device untouched. The URL's query
 * (which may carry a signature) never appears in a message.
 */
export async function downloadImage(
  fetchImage: typeof fetch,
  image: ImageParam,
  dir: string,
  maxBytes = DEFAULT_MAX_IMAGE_BYTES,
): Promise<DownloadedImage> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `image-${randomUUID()}`);
  const remove = () => rm(path, { force: true });
  const shown = shownUrl(image.url);
  const hash = createHash('sha256');
  let bytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new Error(`larger than ${maxBytes} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(await openImage(fetchImage, image.url, shown), measure, createWriteStream(path));
  } catch (error) {
    await remove();
    if (error instanceof DriverOperationError) throw error;
    throw untouched(DRIVER_ERROR_CODES.imageDownloadFailed, `downloading ${shown} failed: ${(error as Error)?.message ?? error}`);
  }
  const sha256 = hash.digest('hex');
  if (sha256 !== image.sha256) {
    await remove();
    throw untouched(DRIVER_ERROR_CODES.imageChecksumMismatch, `${shown} has SHA-256 ${sha256}, not the job's ${image.sha256}`, {
      expectedSha256: image.sha256,
      actualSha256: sha256,
      bytes,
    });
  }
  return { path, sha256, bytes, remove };
}

async function openImage(fetchImage: typeof fetch, url: string, shown: string): Promise<Readable> {
  if (url.startsWith('file:')) return createReadStream(fileURLToPath(url));
  const response = await fetchImage(url, { redirect: 'follow' });
  if (!response.ok || response.body === null) {
    throw untouched(DRIVER_ERROR_CODES.imageDownloadFailed, `GET ${shown} answered ${response.status} ${response.statusText}`.trim());
  }
  return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
}

function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(unparseable URL)';
  }
}
