import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentLogger } from './agent-logger';
import type { JobResult } from './protocol';

/** A job id is used as a file name: only what a uuid (or a similar id) is made of. */
const SAFE_JOB_ID = /^[A-Za-z0-9-]{1,64}$/;
const SUFFIX = '.json';
/** How many delivered job ids the outbox remembers: a job is offered again only within moments of its result's delivery. */
const DELIVERED_KEPT = 1024;

export interface PendingResult {
  readonly jobId: string;
  readonly result: JobResult;
  readonly savedAt: string;
}

/**
 * Job results the ledger has not acknowledged yet, one JSON file each under
 * `<stateDir>/results/`, written atomically (temp file, fsync, rename,
 * fsync of the directory) so a crash leaves either the whole result or none.
 * A result is written as it is sent (the file I/O off the event loop, so
 * the two overlap) and removed only once the ledger has it and the write is
 * done, so a restart or an outage loses none.
 */
export class ResultOutbox {
  readonly dir: string;
  /** Jobs whose results the ledger took (or refused for good) since this agent started, oldest first. */
  private readonly delivered = new Set<string>();

  constructor(
    stateDir: string,
    private readonly logger: AgentLogger,
  ) {
    this.dir = join(stateDir, 'results');
    mkdirSync(this.dir, { recursive: true });
    // A write cut short by a crash leaves only its temp file: that result was never saved, and the ledger offers its job again.
    for (const name of readdirSync(this.dir)) if (name.includes(`${SUFFIX}.tmp-`)) rmSync(join(this.dir, name), { force: true });
  }

  static isStorableJobId(jobId: string): boolean {
    return SAFE_JOB_ID.test(jobId);
  }

  async save(jobId: string, result: JobResult, savedAt: Date): Promise<void> {
    const file = this.fileOf(jobId);
    const temporary = `${file}.tmp-${process.pid}`;
    const content: PendingResult = { jobId, result, savedAt: savedAt.toISOString() };
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(content));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
    await syncDirectory(this.dir);
  }

  has(jobId: string): boolean {
    return SAFE_JOB_ID.test(jobId) && existsSync(this.fileOf(jobId));
  }

  /** Every unacknowledged result, oldest first. An unreadable file is set aside as `*.corrupt` with a warning. */
  pending(): PendingResult[] {
    const results: PendingResult[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith(SUFFIX)) continue;
      const file = join(this.dir, name);
      try {
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as PendingResult;
        if (typeof parsed?.jobId !== 'string' || typeof parsed.result?.outcome !== 'string') throw new Error('not a job result');
        results.push(parsed);
      } catch (error) {
        this.logger.warn(`results: ${file} is unreadable (${(error as Error).message}); set aside as ${name}.corrupt`);
        renameSync(file, `${file}.corrupt`);
      }
    }
    return results.sort((a, b) => a.savedAt.localeCompare(b.savedAt) || a.jobId.localeCompare(b.jobId));
  }

  /** The ledger has the job's result (or will never take it): the file goes, the job id is remembered (`wasDelivered`). */
  remove(jobId: string): void {
    rmSync(this.fileOf(jobId), { force: true });
    this.delivered.add(jobId);
    if (this.delivered.size > DELIVERED_KEPT) this.delivered.delete(this.delivered.values().next().value!);
  }

  /**
   * Whether this agent delivered the job's result already. A poll the
   * ledger answered while that result was on its way may offer the job
   * again (docs/agent-protocol.md, Redelivery); running it again would
   * repeat its change where the ledger never hears of it (a second carve
   * makes a partition no bind holds and no reclaim knows).
   */
  wasDelivered(jobId: string): boolean {
    return this.delivered.has(jobId);
  }

  private fileOf(jobId: string): string {
    if (!SAFE_JOB_ID.test(jobId)) throw new Error(`job id "${jobId}" cannot name a result file`);
    return join(this.dir, `${jobId}${SUFFIX}`);
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
