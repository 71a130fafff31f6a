import type { JobView } from '@ledger/projections/jobs';

/** While nothing changes, a reminder line this often, so a long wait (a playbook) does not look hung. */
const STILL_EVERY_MS = 15_000;

/**
 * A waiting job's progress as lines on stderr (stdout stays for the
 * outcome): one line per change of state, and a reminder while it stays.
 */
export class JobProgress {
  private readonly started: number;
  private lastState?: string;
  private lastLineAt = 0;

  constructor(
    private readonly write: (line: string) => void = (line) => process.stderr.write(line),
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Feed every polled view of the job. */
  seen(job: JobView): void {
    const at = this.now();
    const label = `job ${job.jobId} (${job.kind} on ${job.hostname})`;
    if (job.state !== this.lastState) {
      const first = this.lastState === undefined ? '; Ctrl-C stops waiting, not the job' : '';
      this.line(at, `${label}: ${describeState(job)}${first}`);
      this.lastState = job.state;
    } else if (at - this.lastLineAt >= STILL_EVERY_MS) {
      this.line(at, `${label}: still ${job.state}`);
    }
  }

  private line(at: number, text: string): void {
    this.lastLineAt = at;
    this.write(`[${((at - this.started) / 1000).toFixed(1)} s] ${text}\n`);
  }
}

function describeState(job: JobView): string {
  switch (job.state) {
    case 'requested':
      return `requested, waiting for the agent of ${job.hostname} to take it`;
    case 'dispatched':
      return `taken by the agent (attempt ${job.attempt})`;
    case 'failed':
      return `failed: ${job.code}`;
    default:
      return job.state;
  }
}
