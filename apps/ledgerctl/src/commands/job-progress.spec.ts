import type { JobView } from '@ledger/projections/jobs';
import { JobProgress } from './job-progress';

const job = (state: JobView['state'], extra: Partial<JobView> = {}) =>
  ({ jobId: 'j1', kind: 'attach', hostname: 'compute-1', state, attempt: 1, code: null, ...extra }) as JobView;

describe('JobProgress', () => {
  it('prints a line per change of state and a reminder every 15 s while it stays', () => {
    let clock = 0;
    const lines: string[] = [];
    const progress = new JobProgress((line) => lines.push(line), () => clock);
    progress.seen(job('requested'));
    clock = 1_000;
    progress.seen(job('requested'));
    clock = 2_500;
    progress.seen(job('dispatched'));
    clock = 10_000;
    progress.seen(job('dispatched'));
    clock = 17_500;
    progress.seen(job('dispatched'));
    clock = 18_000;
    progress.seen(job('failed', { code: 'DRIVER.INJECTED_FAILURE' }));
    expect(lines).toEqual([
      '[0.0 s] job j1 (attach on compute-1): requested, waiting for the agent of compute-1 to take it; Ctrl-C stops waiting, not the job\n',
      '[2.5 s] job j1 (attach on compute-1): taken by the agent (attempt 1)\n',
      '[17.5 s] job j1 (attach on compute-1): still dispatched\n',
      '[18.0 s] job j1 (attach on compute-1): failed: DRIVER.INJECTED_FAILURE\n',
    ]);
  });
});
