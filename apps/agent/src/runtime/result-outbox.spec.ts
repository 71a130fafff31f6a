import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResultOutbox } from './result-outbox';
import { collectingLogger } from './testing/fake-driver';

describe('ResultOutbox', () => {
  let stateDir: string;
  beforeEach(() => (stateDir = mkdtempSync(join(tmpdir(), 'agent-outbox-'))));
  afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

  it('keeps each result in its own file until removed, oldest first, across instances', async () => {
    const outbox = new ResultOutbox(stateDir, collectingLogger());
    await outbox.save('0191-b', { outcome: 'failed', code: 'JOB.TIMED_OUT', reason: 'slow', evidence: {} }, new Date('2026-01-01T00:00:02Z'));
    await outbox.save('0191-a', { outcome: 'completed', evidence: { numVfs: 4 } }, new Date('2026-01-01T00:00:01Z'));
    expect(readdirSync(outbox.dir).sort()).toEqual(['0191-a.json', '0191-b.json']);
    const reopened = new ResultOutbox(stateDir, collectingLogger());
    expect(reopened.pending().map((pending) => pending.jobId)).toEqual(['0191-a', '0191-b']);
    expect(reopened.pending()[0]).toEqual({ jobId: '0191-a', result: { outcome: 'completed', evidence: { numVfs: 4 } }, savedAt: '2026-01-01T00:00:01.000Z' });
    expect(reopened.has('0191-a')).toBe(true);
    reopened.remove('0191-a');
    expect(reopened.has('0191-a')).toBe(false);
    expect(reopened.pending().map((pending) => pending.jobId)).toEqual(['0191-b']);
  });

  it('remembers the jobs whose results it delivered, the newest 1,024', async () => {
    const outbox = new ResultOutbox(stateDir, collectingLogger());
    await outbox.save('job-0', { outcome: 'completed', evidence: {} }, new Date('2026-01-01T00:00:00Z'));
    for (let job = 0; job <= 1024; job++) outbox.remove(`job-${job}`);
    expect(outbox.wasDelivered('job-1024')).toBe(true);
    expect(outbox.wasDelivered('job-1')).toBe(true);
    expect(outbox.wasDelivered('job-0')).toBe(false);
    expect(outbox.wasDelivered('job-never')).toBe(false);
  });

  it('sets an unreadable file aside instead of failing every delivery', async () => {
    const logger = collectingLogger();
    const outbox = new ResultOutbox(stateDir, logger);
    writeFileSync(join(outbox.dir, 'torn.json'), '{"jobId": "torn", "res');
    await outbox.save('ok', { outcome: 'completed', evidence: {} }, new Date());
    expect(outbox.pending().map((pending) => pending.jobId)).toEqual(['ok']);
    expect(readdirSync(outbox.dir).sort()).toEqual(['ok.json', 'torn.json.corrupt']);
    expect(logger.lines).toContainEqual(expect.stringMatching(/torn.json is unreadable/));
  });

  it('clears the temp file of a write a crash cut short', () => {
    const outbox = new ResultOutbox(stateDir, collectingLogger());
    writeFileSync(join(outbox.dir, 'cut.json.tmp-4242'), '{"jobId"');
    new ResultOutbox(stateDir, collectingLogger());
    expect(readdirSync(outbox.dir)).toEqual([]);
  });

  it('refuses a job id that could escape the directory', async () => {
    const outbox = new ResultOutbox(stateDir, collectingLogger());
    expect(ResultOutbox.isStorableJobId('../../etc/passwd')).toBe(false);
    await expect(outbox.save('../x', { outcome: 'completed', evidence: {} }, new Date())).rejects.toThrow(/cannot name a result file/);
    expect(outbox.has('../x')).toBe(false);
  });
});
