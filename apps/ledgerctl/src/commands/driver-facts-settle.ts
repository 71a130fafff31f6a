import type { HostDriverView, JobView } from '@ledger/projections/jobs';
import type { LedgerApiClient } from '../support/ledger-api-client';

const POLL_MS = 100;
const SETTLE_MS = 10_000;

export interface SettleOptions {
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
  readonly warn?: (line: string) => void;
}

/**
 * Waits until the host's drivers list shows the finished driver job. The
 * inventory's job-facts reactor records the host-stream fact
 * (DriverInstalled…) after the job's outcome, and the read model may show
 * the one a moment before the other; so that `driver-list` right after
 * `install-driver --wait` shows the install, the command returns only once
 * the list does. After
 * SETTLE_MS it warns and returns: the job's outcome stands either way.
 */
export async function awaitDriverFacts(client: Pick<LedgerApiClient, 'request'>, job: JobView, options: SettleOptions = {}): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const deadline = now() + SETTLE_MS;
  for (;;) {
    const { drivers } = await client.request<{ drivers: HostDriverView[] }>('GET', `/api/v1/hosts/${encodeURIComponent(job.hostname)}/drivers`);
    if (showsJob(drivers, job)) return;
    if (now() >= deadline) {
      (options.warn ?? ((line) => process.stderr.write(line)))(`ledgerctl: the drivers list of ${job.hostname} does not show job ${job.jobId} yet\n`);
      return;
    }
    await sleep(POLL_MS);
  }
}

/** Every driver fact names its job; a completed uninstall instead takes the driver off the list. */
export function showsJob(drivers: readonly HostDriverView[], job: JobView): boolean {
  const entry = drivers.find((driver) => driver.driver === job.params.driver);
  if (job.kind === 'uninstall-driver' && job.state === 'completed') return entry === undefined || entry.lastJobId === job.jobId;
  return entry?.lastJobId === job.jobId;
}
