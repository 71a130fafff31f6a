import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** One snapshot file: a read model (`projection` at `version`) as of `position`, named so it can be chosen without opening it. */
export interface SnapshotFile {
  readonly projection: string;
  readonly version: number;
  readonly position: number;
  readonly path: string;
}

const NAME = /^(.+)\.v(\d+)\.(\d+)\.sqlite$/;

/**
 * The snapshot directory: one SQLite image per (projection, version,
 * position), `inventory.v4.000000050000.sqlite`. A file appears whole or not
 * at all (written beside, then renamed), so a reader never opens half of one.
 */
export class SnapshotFiles {
  constructor(readonly directory: string) {}

  /** The snapshots of one read model version, newest position first. */
  list(projection: string, version: number): SnapshotFile[] {
    return this.listAll(projection).filter((file) => file.version === version);
  }

  /** The snapshots of a read model at every version, newest position first. */
  private listAll(projection: string): SnapshotFile[] {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return [];
    }
    const files: SnapshotFile[] = [];
    for (const name of names) {
      const match = NAME.exec(name);
      if (match?.[1] !== projection) continue;
      files.push({ projection, version: Number(match[2]), position: Number(match[3]), path: join(this.directory, name) });
    }
    return files.sort((a, b) => b.position - a.position);
  }

  /**
   * Deletes the snapshots of `projection` past the newest `keep` of
   * `version`, and every one of its other versions (never read again by
   * this version); resolves to what was deleted. A read using one has its
   * own scratch copy, which the deletion does not touch.
   */
  prune(projection: string, version: number, keep: number): SnapshotFile[] {
    if (!Number.isSafeInteger(keep) || keep < 1) throw new Error(`keep must be a positive integer, not ${keep}`);
    const removed = [...this.listAll(projection).filter((file) => file.version !== version), ...this.list(projection, version).slice(keep)];
    for (const file of removed) rmSync(file.path, { force: true });
    return removed;
  }

  /** Writes a snapshot: `fill` creates the file at the path it is given (beside the final name), which is then renamed into place. */
  async write(projection: string, version: number, position: number, fill: (path: string) => Promise<void>): Promise<SnapshotFile> {
    mkdirSync(this.directory, { recursive: true });
    const path = join(this.directory, `${projection}.v${version}.${String(position).padStart(12, '0')}.sqlite`);
    const partial = `${path}.partial`;
    // A partial file a crash left behind: SQLite's backup would write into it instead of starting afresh.
    rmSync(partial, { force: true });
    await fill(partial);
    renameSync(partial, path);
    return { projection, version, position, path };
  }
}
