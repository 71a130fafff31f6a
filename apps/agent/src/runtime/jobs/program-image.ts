import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as delay } from 'node:timers/promises';
import { isUuid } from '@ledger/kernel';
import type { JobParams } from '../../drivers/accelerator-driver';
import { backoffMs } from '../backoff';
import { JOB_FAILURE_CODES, JobFailure } from './job-failure';

export interface ImageSourceOptions {
  readonly stateDir: string;
  /**
   * The agent's ledger and credential: an image named by a ledger path (a
   * registered bitstream's content) is fetched there. `urls` gives its
   * addresses in the order the agent's calls try them (LedgerClient.addressesInTurn):
   * the one in use first, the others in case it is down.
   */
  readonly ledger?: { readonly urls: () => readonly string[]; readonly token: string };
  /** A Glance-style image service, to resolve `imageUuid`. */
  readonly imageServiceUrl?: string;
  readonly imageServiceToken?: string;
}

/** A program job's image on local disk, verified. The caller removes it when the job is done. */
export interface FetchedImage {
  readonly path: string;
  readonly sha256: string;
  readonly sizeBytes: number;
}

interface ExpectedImage {
  /** Where the image is: one URL, or the agent's ledger addresses in turn (each serves the same bytes). */
  readonly urls: readonly string[];
  readonly headers: Record<string, string>;
  readonly algorithm: 'sha256' | 'sha512';
  readonly hash: string;
  /** On the agent's own ledger: a ledger that is restarting is waited for (LEDGER_IMAGE_ATTEMPTS). */
  readonly onLedger?: boolean;
}

/**
 * Rounds of tries at fetching an image from the agent's own ledger (each of
 * its addresses in turn) while it cannot be reached or answers 5xx, with the
 * agent's backoff between rounds (1, 2, 4, 8, 16 s): a ledger restarting
 * takes seconds, and the undo of a bind (loading back the region's image)
 * must not fail because the ledger was down a moment.
 */
const LEDGER_IMAGE_ATTEMPTS = 6;

const HEX = { sha256: /^[0-9a-f]{64}$/, sha512: /^[0-9a-f]{128}$/ } as const;
const LEDGER_CONTENT_PATH = /^\/api\/v1\/bitstreams\/[0-9a-f-]{36}\/content$/;
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
    const response = await get(expected.urls, expected.headers, signal, expected.onLedger ? LEDGER_IMAGE_ATTEMPTS : 1);
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
    if (!HEX.sha256.test(hash)) throw invalid('params.image.sha256 must be 64 hex digits');
    if (typeof image.url === 'string' && LEDGER_CONTENT_PATH.test(image.url)) return { ...onLedger(image.url, options), algorithm: 'sha256', hash };
    if (typeof image.url !== 'string' || !/^https?:\/\//.test(image.url)) throw invalid('params.image.url must be an http(s) URL or a ledger path /api/v1/bitstreams/{id}/content');
    return { urls: [image.url], headers: {}, algorithm: 'sha256', hash };
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
    meta = (await (await get([base], { ...headers, accept: 'application/json' }, signal)).json()) as typeof meta;
  } catch (error) {
    throw new JobFailure(JOB_FAILURE_CODES.imageUnavailable, `image ${imageUuid}: ${(error as Error)?.message ?? error}`, { deviceState: 'unchanged' });
  }
  const algorithm = meta.os_hash_algo;
  const hash = typeof meta.os_hash_value === 'string' ? meta.os_hash_value.toLowerCase() : '';
  if ((algorithm !== 'sha256' && algorithm !== 'sha512') || !HEX[algorithm].test(hash)) {
    throw new JobFailure(JOB_FAILURE_CODES.imageUnavailable, `image ${imageUuid} has no sha256 or sha512 hash to verify it against`, { deviceState: 'unchanged' });
  }
  return { urls: [`${base}/file`], headers, algorithm, hash };
}

/** A registered bitstream's bytes on the agent's own ledger, fetched with the agent's credential (the ledger serves them to agents only). */
function onLedger(path: string, options: ImageSourceOptions): Pick<ExpectedImage, 'urls' | 'headers' | 'onLedger'> {
  if (!options.ledger) throw new JobFailure(JOB_FAILURE_CODES.imageUnavailable, `image ${path} is on the ledger, and this agent has no ledger to fetch it from`, { deviceState: 'unchanged' });
  return { urls: options.ledger.urls().map((url) => `${url}${path}`), headers: { 'x-auth-token': options.ledger.token }, onLedger: true };
}

/**
 * GET the first of `urls` that answers: a connection failure or a 5xx
 * answer moves on to the next URL at once, and after the last one the round
 * starts again (with backoff), up to `rounds` rounds in all.
 */
async function get(urls: readonly string[], headers: Record<string, string>, signal: AbortSignal, rounds = 1): Promise<Response> {
  for (let round = 1; ; round++) {
    let failure = new Error('no URL to fetch');
    for (const url of urls) {
      const answer = await fetch(url, { headers, signal }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (answer instanceof Response && answer.ok && answer.body) return answer;
      if (answer instanceof Response) await answer.body?.cancel();
      failure = answer instanceof Response ? new Error(`GET ${shown(url)} answered ${answer.status}`) : answer;
      const transient = !(answer instanceof Response) || answer.status >= 500;
      if (!transient || signal.aborted) throw failure;
    }
    if (round >= rounds) throw failure;
    await delay(backoffMs(round), undefined, { signal });
  }
}

/** A URL as messages show it: without its query, which may carry a signature. */
const shown = (url: string): string => url.split('?')[0];

const invalid = (reason: string) => new JobFailure(JOB_FAILURE_CODES.paramsInvalid, reason, { deviceState: 'unchanged' });
