import { access, copyFile, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Verified images by the function id they load, so a failed program can
 * put the previous function back. Operators may seed it with a card's
 * golden image (`<functionId>.bin`, the id as 32 lower-case hex digits).
 */
export class BitstreamCache {
  constructor(readonly dir: string) {}

  pathFor(functionId: string): string {
    return join(this.dir, `${functionId}.bin`);
  }

  async has(functionId: string): Promise<boolean> {
    try {
      await access(this.pathFor(functionId));
      return true;
    } catch {
      return false;
    }
  }

  /** Copies in under a temporary name first, so a half-written file never passes for a good image. */
  async store(functionId: string, imagePath: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const partial = `${this.pathFor(functionId)}.partial`;
    await copyFile(imagePath, partial);
    await rename(partial, this.pathFor(functionId));
  }
}
