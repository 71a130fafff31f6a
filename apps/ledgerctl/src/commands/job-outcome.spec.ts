import type { JobView } from '@ledger/projections/jobs';
import { formatJobOutcome } from './job-outcome';

const base: JobView = {
  jobId: 'j1',
  hostname: 'compute-1',
  kind: 'install-driver',
  params: { driver: 'simulated', version: '2.5.0' },
  timeoutSeconds: 1800,
  state: 'completed',
  attempt: 1,
  requestedAt: '2026-01-01T00:00:00.000Z',
  deadline: '2026-01-01T00:30:00.000Z',
  dispatchedAt: '2026-01-01T00:00:00.100Z',
  finishedAt: '2026-01-01T00:00:04.130Z',
  code: null,
  reason: null,
  evidence: {
    driver: 'simulated',
    version: '2.5.0',
    playbook: '/opt/agent/playbooks/simulated/install.yml',
    // As the ledger serves it: canonical JSON, keys sorted.
    recap: { changed: 3, failed: 0, ignored: 0, ok: 5, rescued: 0, skipped: 1, unreachable: 0 },
  },
  position: 1,
};

describe('formatJobOutcome', () => {
  it('prints a completed driver job with its params, version, playbook and the Ansible recap', () => {
    expect(formatJobOutcome(base)).toBe(
      [
        'job j1: install-driver on compute-1 completed in 4.1 s',
        '  params    driver=simulated version=2.5.0',
        '  driver    simulated',
        '  version   2.5.0',
        '  playbook  /opt/agent/playbooks/simulated/install.yml',
        '  recap     ok=5 changed=3 unreachable=0 failed=0 skipped=1 rescued=0 ignored=0',
        '',
      ].join('\n'),
    );
  });

  it("prints a failure's code, reason and device state, and the output tail as a block cut to its end", () => {
    const tail = Array.from({ length: 25 }, (_, index) => `line ${index + 1}`).join('\n');
    const text = formatJobOutcome({
      ...base,
      kind: 'attach',
      params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', instanceUuid: 'i1' },
      state: 'failed',
      finishedAt: '2026-01-01T00:00:42.000Z',
      code: 'DRIVER.INJECTED_FAILURE',
      reason: 'simulated attach failure',
      evidence: { driver: 'i915', deviceState: 'bound to i915 (previous driver restored)', outputTail: `${tail}\n` },
    });
    const lines = text.split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'job j1: attach on compute-1 failed in 42 s',
      '  params       deviceUuid=d1 pciAddress=0000:3b:00.0 instanceUuid=i1',
      '  code         DRIVER.INJECTED_FAILURE',
      '  reason       simulated attach failure',
      '  driver       i915',
      '  deviceState  bound to i915 (previous driver restored)',
      '  outputTail:',
    ]);
    expect(lines.slice(7, 9)).toEqual(['    | … 5 earlier line(s)', '    | line 6']);
    expect(lines.at(-2)).toBe('    | line 25');
  });

  it('prints nested values as JSON and a job not finished without a duration', () => {
    const text = formatJobOutcome({
      ...base,
      kind: 'program',
      state: 'dispatched',
      finishedAt: null,
      params: { pciAddress: '0000:3b:00.0', image: { url: 'http://x/y.gbs', sha256: 'ab' } },
      evidence: null,
    });
    expect(text).toBe(['job j1: program on compute-1 dispatched', '  params  {"pciAddress":"0000:3b:00.0","image":{"url":"http://x/y.gbs","sha256":"ab"}}', ''].join('\n'));
  });
});
