import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { isUuid } from '@ledger/kernel';
import type { JobParams } from '../../drivers/accelerator-driver';
import { JOB_FAILURE_CODES, JobFailure } from './job-failure';

export interface ImageSourceOptions {
  readonly stateDir: string;
  /** A Glance-style image service, to resolve `imageUuid`. */
  readonly imageServiceUrl?: string;
  readonly imageServiceToken?: string;
  /** The ledger this agent reports to and its credential: an image served by the ledger (`/api/v1/bitstreams/{id}/content`) needs it. */
  readonly ledger?: { readonly url: string; readonly token: string };
}

/** A program job's image on local disk, verified. The caller removes it when the job is done. */
export interface FetchedImage {
  readonly path: string;
  readonly sha256: string;
  readonly sizeBytes: number;
}

interface ExpectedImage {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly algorithm: 'sha256' | 'sha512';
  readonly hash: string;
}

const HEX = { sha256: /^[0-9a-f]{64}$/, sha512: /^[0-9a-f]{128}$/ } as const;
/** Bitstreams and shells run to hundreds of MiB; past this a download is refused rather than filling the disk. */
export const MAX_IMAGE_BYTES = 4 * 1024 ** 3;

/**
 * Downloads a program job's image into `<stateDir>/images` and verifies it
 * before any driver sees it: `params.image {url, sha256}`, or
 * `params.image {imageUuid}` (Cyborg's program by Glance id) resolved through the image service
 * (`GET /v2/images/{id}` for `os_hash_algo`/`os_hash_value`, then `/file`).
 * A mismatch deletes the download and fails with
 * JOB.IMAGE_CHECKSUM_MISMATCH, so the device is never touched.
 */
export async function fetchProgramImage(params: JobParams, options: ImageSourceOptions, signal: AbortSignal): Promise<FetchedImage> {
  const expected = await expectedImage(params, options, signal);
  const dir = join(options.stateDir, 'images');
  mkdirSync(dir, { recursive: true });
  const partial = join(dir, `${randomUUID()}.part`);
  try {
    const response = await get(expected.url, expected.headers, signal);
    const sha256 = createHash('sha256');
    const declared = expected.algorithm === 'sha256' ? sha256 : createHash(expected.algorithm);
    let sizeBytes = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sizeBytes += chunk.length;
        if (sizeBytes > MAX_IMAGE_BYTES) return done(new Error(`larger than ${MAX_IMAGE_BYTES} bytes`));
        sha256.update(chunk);
        if (declared !== sha256) declared.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), hashing, createWriteStream(partial, { mode: 0o600 }), { signal });
    const sha256Hex = sha256.digest('hex');
    const actual = declared === sha256 ? sha256Hex : declared.digest('hex');
    if (actual !== expected.hash) {
      throw new JobFailure(JOB_FAILURE_CODES.imageChecksumMismatch, `the image's ${expected.algorithm} is ${actual}, not ${expected.hash}; the device was not touched`, {
        algorithm: expected.algorithm,
        expected: expected.hash,
        actual,
        deviceState: 'unchanged',
      });
    }
    const path = join(dir, `${sha256Hex}.img`);
    renameSync(partial, path);
    return { path, sha256: sha256Hex, sizeBytes };
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof JobFailure) throw error;
    throw new JobFailure(JOB_FAILURE_CODES.imageUnavailable, `the image could not be downloaded (${(error as Error)?.message ?? error})`, { deviceState: 'unchanged' });
  }
}

async function expectedImage(params: JobParams, options: ImageSourceOptions, signal: AbortSignal): Promise<ExpectedImage> {
  const image = params.image as { url?: unknown; sha256?: unknown; imageUuid?: unknown } | undefined;
  if (typeof image !== 'object' || image === null) throw invalid('a program job needs params.image: {url, sha256} or {imageUuid}');
  if (image.imageUuid === undefined) {
    const hash = typeof image.sha256 === 'string' ? image.sha256.toLowerCase() : '';
    if (typeof image.url !== 'string' || !/^https?:\/\//.test(image.url)) throw invalid('params.image.url must be an http(s) URL');
    if (!HEX.sha256.test(hash)) throw invalid('params.image.sha256 must be 64 hex digits');
    return { url: image.url, headers: ledgerHeaders(image.url, options.ledger), algorithm: 'sha256', hash };
  }
  const imageUuid = image.imageUuid;
  if (!isUuid(imageUuid)) throw invalid('params.image.imageUuid must be a uuid');
  if (!options.imageServiceUrl) {
    throw new JobFailure(JOB_FAILURE_CODES.imageUnavailable, `image ${imageUuid} cannot be resolved: AGENT_IMAGE_SERVICE_URL is not set`, { deviceState: 'unchanged' });
  }
  const headers: Record<string, string> = options.imageServiceToken ? { 'x-auth-token': options.imageServiceToken } : {};
  const base = `${options.imageServiceUrl}/v2/images/${encodeURIComponent(imageUuid)}`;
  let meta: { os_hash_algo?: unknown; os_hash_value?: unknown };
  try {
    meta = (await (await get(base, { ...headers, accept: 'application/json' }, signal)).json()) as typeof meta;
  } catch (error) {
    throw new JobFailure(JOB_FAILURE_CODES.imageUnavailable, `image ${imageUuid}: ${(error as Error)?.message ?? error}`, { deviceState: 'unchanged' });
  }
  const algorithm = meta.os_hash_algo;
  const hash = typeof meta.os_hash_value === 'string' ? meta.os_hash_value.toLowerCase() : '';
  if ((algorithm !== 'sha256' && algorithm !== 'sha512') || !HEX[algorithm].test(hash)) {
    throw new JobFailure(JOB_FAILURE_CODES.imageUnavailable, `image ${imageUuid} has no sha256 or sha512 hash to verify it against`, { deviceState: 'unchanged' });
  }
  return { url: `${base}/file`, headers, algorithm, hash };
}

async function get(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
  const response = await fetch(url, { headers, signal });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new Error(`GET ${shown(url)} answered ${response.status}`);
  }
  return response;
}

/** A URL as messages show it: without its query, which may carry a signature. */
const shown = (url: string): string => url.split('?')[0];

const invalid = (reason: string) => new JobFailure(JOB_FAILURE_CODES.paramsInvalid, reason, { deviceState: 'unchanged' });

/** The agent's credential, for an image on its own ledger only: no other server ever sees it. */
function ledgerHeaders(url: string, ledger: ImageSourceOptions['ledger']): Record<string, string> {
  if (!ledger || new URL(url).origin !== new URL(ledger.url).origin) return {};
  return { 'x-auth-token': ledger.token };
}
