import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKOFF_CAP_MS } from './backoff';
import { LedgerCallError } from './ledger-call.error';
import type { JobResult } from './protocol';
import { ResultOutbox } from './result-outbox';
import { ResultSender } from './result-sender';
import { collectingLogger } from './testing/fake-driver';
import { eventually, ManualTimers } from './testing/manual-timers';

describe('ResultSender', () => {
  let stateDir: string;
  let outbox: ResultOutbox;
  let delivered: string[];
  let answer: LedgerCallError | undefined;
  let sender: ResultSender;
  let timers: ManualTimers;
  const logger = collectingLogger();

  beforeEach(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'agent-sender-'));
    outbox = new ResultOutbox(stateDir, logger);
    delivered = [];
    answer = undefined;
    timers = new ManualTimers();
    const client = {
      postResult: async (jobId: string, _result: JobResult) => {
        if (answer) throw answer;
        delivered.push(jobId);
      },
    };
    sender = new ResultSender({ outbox, client, timers, logger, random: () => 0.5 });
  });
  afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

  const save = (jobId: string, at = 0) => outbox.save(jobId, { outcome: 'completed', evidence: {} }, new Date(Date.UTC(2026, 0, 1) + at));
  const down = () => new LedgerCallError('unreachable', 'POST /result', 'ECONNREFUSED');

  it('delivers oldest first and forgets what the ledger has', async () => {
    await save('b', 2);
    await save('a', 1);
    expect(await sender.flush()).toBe(true);
    expect(delivered).toEqual(['a', 'b']);
    expect(outbox.pending()).toEqual([]);
  });

  it('says which results the ledger has, once it has them: not while it is unreachable', async () => {
    const told: string[] = [];
    const client = { postResult: async (jobId: string) => (answer ? Promise.reject(answer) : void delivered.push(jobId)) };
    const telling = new ResultSender({ outbox, client, timers, logger, random: () => 0.5, onDelivered: (jobId) => told.push(jobId) });
    await save('a');
    answer = down();
    expect([await telling.flush(), told]).toEqual([false, []]);
    answer = undefined;
    expect([await telling.flush(), told]).toEqual([true, ['a']]);
  });

  it('keeps results while the ledger is unreachable or failing', async () => {
    await save('a');
    answer = down();
    expect(await sender.flush()).toBe(false);
    answer = new LedgerCallError('server', 'POST /result', 'HTTP.503', 503, 'HTTP.503');
    expect(await sender.flush()).toBe(false);
    expect(outbox.pending().map((pending) => pending.jobId)).toEqual(['a']);
  });

  it('removes a result the ledger has finished already (sent before and taken, or timed out), and goes on with the next', async () => {
    await save('late', 1);
    await save('next', 2);
    let calls = 0;
    answer = undefined;
    sender = new ResultSender({
      outbox,
      client: {
        postResult: async (jobId: string) => {
          if (calls++ === 0) throw new LedgerCallError('refused', 'POST /result', 'JOB.ALREADY_FINISHED: timed out', 409, 'JOB.ALREADY_FINISHED');
          delivered.push(jobId);
        },
      },
      timers,
      logger,
    });
    expect(await sender.flush()).toBe(true);
    expect(delivered).toEqual(['next']);
    expect(outbox.pending()).toEqual([]);
    expect(logger.lines).toContainEqual(expect.stringMatching(/job late: the ledger has the job finished already \(JOB.ALREADY_FINISHED: timed out\)/));
  });

  it('drops a result the ledger refuses for good (an unknown job), saying so', async () => {
    await save('gone');
    answer = new LedgerCallError('refused', 'POST /result', 'JOB.NOT_FOUND: job gone does not exist', 404, 'JOB.NOT_FOUND');
    expect(await sender.flush()).toBe(true);
    expect(outbox.pending()).toEqual([]);
    expect(logger.lines).toContainEqual(expect.stringMatching(/job gone: the ledger refused the result for good \(.*JOB.NOT_FOUND/));
  });

  it('retries with exponential backoff capped at 60 s, and delivers at once when woken after the ledger is back', async () => {
    await save('a');
    answer = down();
    const stop = new AbortController();
    const running = sender.run(stop.signal);
    for (let attempt = 1; attempt <= 9; attempt++) {
      await eventually(() => timers.requested.length === attempt && timers.sleeping === 1);
      timers.advance(timers.requested.at(-1)!);
    }
    await eventually(() => timers.requested.length === 10 && timers.sleeping === 1);
    expect(timers.requested).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, BACKOFF_CAP_MS, BACKOFF_CAP_MS, BACKOFF_CAP_MS, BACKOFF_CAP_MS]);
    answer = undefined;
    sender.wake();
    await eventually(() => delivered.length === 1 && timers.sleeping === 1);
    expect(outbox.pending()).toEqual([]);
    stop.abort();
    await running;
  });

  it('sends a result at once, while it is being saved, and removes the file once the ledger has it and the write is done', async () => {
    const told: string[] = [];
    let finishSave!: () => void;
    const saved = new Promise<void>((resolve) => (finishSave = resolve));
    const telling = new ResultSender({ outbox, client: { postResult: async (jobId: string) => void delivered.push(jobId) }, timers, logger, onDelivered: (jobId) => told.push(jobId) });
    telling.send('a', { outcome: 'completed', evidence: {} }, saved);
    await eventually(() => delivered.length === 1);
    expect(told).toEqual([]);
    await save('a');
    finishSave();
    await eventually(() => told.length === 1);
    expect(outbox.pending()).toEqual([]);
    expect(outbox.wasDelivered('a')).toBe(true);
  });

  it('leaves a result whose first send failed to the flushes, which deliver the saved copy', async () => {
    answer = down();
    const saving = save('a');
    sender.send('a', { outcome: 'completed', evidence: {} }, saving);
    expect(await sender.flush()).toBe(false);
    expect(outbox.pending().map((pending) => pending.jobId)).toEqual(['a']);
    answer = undefined;
    expect(await sender.flush()).toBe(true);
    expect([delivered, outbox.pending()]).toEqual([['a'], []]);
  });
});
