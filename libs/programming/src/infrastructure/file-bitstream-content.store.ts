import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BitstreamContentStore } from '../application/bitstream-content.port';

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Image bytes as files `<dir>/<sha256>.bin`. A file is written under a
 * temporary name, synced, and then linked to its final name, so a reader
 * never sees half an image and two uploads of the same bytes never clash
 * (the second link finds the first's file).
 */
export class FileBitstreamContentStore implements BitstreamContentStore {
  constructor(private readonly dir: string) {}

  async put(sha256: string, bytes: Buffer): Promise<{ created: boolean }> {
    const path = this.pathOf(sha256);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const partial = join(this.dir, `${randomUUID()}.part`);
    await writeFile(partial, bytes, { mode: 0o600, flush: true });
    try {
      await link(partial, path);
      return { created: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { created: false };
      throw error;
    } finally {
      await unlink(partial);
    }
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }

  async open(sha256: string) {
    const path = this.pathOf(sha256);
    try {
      const { size } = await stat(path);
      return { stream: createReadStream(path), sizeBytes: size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  private pathOf(sha256: string): string {
    // The name becomes a path: nothing but a checksum may reach it.
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return join(this.dir, `${sha256}.bin`);
  }
}
