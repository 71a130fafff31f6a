import { createHash } from 'node:crypto';
import type { BitstreamOriginReader, OriginBytes } from '../application/bitstream-origin.port';
import { fetchFailureReason } from '@ledger/kernel';
import { shownOriginUrl } from '../domain/bitstream-origin';
import { BitstreamOriginUnavailableError } from '../domain/programming.errors';

/**
 * Reads an origin URL with fetch, hashing while the body streams in and
 * stopping at the first byte past `maxBytes` (the declared size), so a
 * wrong or hostile URL costs at most that much. The bytes are kept (once)
 * because an Ed25519 signature can only be verified over the whole image.
 */
export class HttpBitstreamOriginReader implements BitstreamOriginReader {
  async read(url: string, limits: { readonly maxBytes: number; readonly timeoutMs: number }): Promise<OriginBytes> {
    const unavailable = (reason: string) => new BitstreamOriginUnavailableError(shownOriginUrl(url), reason);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(limits.timeoutMs) });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw unavailable(`answered ${response.status}`);
      }
      return await readBounded(response.body, limits.maxBytes);
    } catch (error) {
      if (error instanceof BitstreamOriginUnavailableError) throw error;
      throw unavailable(whyUnreadable(error, limits.timeoutMs));
    }
  }
}

async function readBounded(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<OriginBytes> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let sizeBytes = 0;
  const reader = body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    if (sizeBytes + chunk.length > maxBytes) {
      await reader.cancel();
      return { bytes: Buffer.concat(chunks), sha256: hash.digest('hex'), sizeBytes, overflowed: true };
    }
    sizeBytes += chunk.length;
    hash.update(chunk);
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks, sizeBytes), sha256: hash.digest('hex'), sizeBytes, overflowed: false };
}

function whyUnreadable(error: unknown, timeoutMs: number): string {
  return fetchFailureReason(error, `no answer within ${timeoutMs} ms (LEDGER_BITSTREAM_ORIGIN_TIMEOUT_MS)`);
}
