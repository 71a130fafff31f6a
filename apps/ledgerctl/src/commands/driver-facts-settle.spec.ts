import type { HostDriverView, JobView } from '@ledger/projections/jobs';
import { awaitDriverFacts, showsJob } from './driver-facts-settle';

const entry = (lastJobId: string) => ({ driver: 'simulated', lastJobId }) as HostDriverView;
const job = (kind: string, state: JobView['state'], jobId = 'j2') => ({ jobId, hostname: 'compute-1', kind, state, params: { driver: 'simulated' } }) as unknown as JobView;

describe('awaitDriverFacts', () => {
  it("sees a driver job in the list once the driver's entry names it; a completed uninstall once the entry is gone", () => {
    expect(showsJob([entry('j1')], job('install-driver', 'completed'))).toBe(false);
    expect(showsJob([entry('j2')], job('install-driver', 'completed'))).toBe(true);
    expect(showsJob([entry('j2')], job('update-driver', 'failed'))).toBe(true);
    expect(showsJob([], job('install-driver', 'failed'))).toBe(false);
    expect(showsJob([entry('j1')], job('uninstall-driver', 'completed'))).toBe(false);
    expect(showsJob([], job('uninstall-driver', 'completed'))).toBe(true);
    expect(showsJob([entry('j2')], job('uninstall-driver', 'failed'))).toBe(true);
  });

  it('polls the drivers list until it shows the job, and warns rather than fails when it never does', async () => {
    let clock = 0;
    const answers = [[entry('j1')], [entry('j1')], [entry('j2')]];
    let polls = 0;
    const client = { request: async <T>() => ({ drivers: answers[Math.min(polls++, answers.length - 1)] }) as T };
    const warnings: string[] = [];
    const options = { sleep: async (ms: number) => void (clock += ms), now: () => clock, warn: (line: string) => warnings.push(line) };
    await awaitDriverFacts(client, job('install-driver', 'completed'), options);
    expect(polls).toBe(3);

    const stale = { request: async <T>() => ({ drivers: [entry('j1')] }) as T };
    await awaitDriverFacts(stale, job('install-driver', 'completed'), options);
    expect(warnings).toEqual(['ledgerctl: the drivers list of compute-1 does not show job j2 yet\n']);
  });
});
