import { Logger } from '@nestjs/common';
import { withLogContext } from '@ledger/kernel';
import { createLedgerLog } from './ledger-log';
import { nestLoggerOf } from './nest-logger';
import { logCapture } from './testing/log-capture';

const settings = { logFormat: 'json', instanceId: 'ledger-a' } as const;

describe('the ledger log', () => {
  afterEach(() => Logger.overrideLogger(true));

  it("writes Nest's Logger calls as JSON lines with the level's name, the context and the instance", () => {
    const capture = logCapture();
    Logger.overrideLogger(nestLoggerOf(createLedgerLog({ ...settings, logLevel: 'log' }, capture)));
    new Logger('Placement').log('reconciler on');
    new Logger('Placement').debug('not at this level');
    expect(capture.lines).toEqual([expect.objectContaining({ level: 'info', context: 'Placement', instance: 'ledger-a', msg: 'reconciler on', time: expect.any(String) })]);
  });

  it.each([
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['log', ['error', 'warn', 'info']],
    ['debug', ['error', 'warn', 'info', 'debug']],
    ['verbose', ['error', 'warn', 'info', 'debug', 'trace']],
  ] as const)('at LEDGER_LOG_LEVEL=%s writes %j', (logLevel, written) => {
    const capture = logCapture();
    const logger = nestLoggerOf(createLedgerLog({ ...settings, logLevel }, capture));
    for (const method of ['error', 'warn', 'log', 'debug', 'verbose'] as const) logger[method]!(method, 'Test');
    expect(capture.lines.map((line) => line.level)).toEqual(written);
  });

  it("keeps an error's stack as a field, not in the message", () => {
    const capture = logCapture();
    Logger.overrideLogger(nestLoggerOf(createLedgerLog({ ...settings, logLevel: 'log' }, capture)));
    const error = new Error('boom');
    new Logger('Processors').error('attempt 1 failed: boom', error.stack);
    expect(capture.lines).toEqual([
      expect.objectContaining({ level: 'error', context: 'Processors', msg: 'attempt 1 failed: boom', err: expect.objectContaining({ stack: expect.stringContaining('Error: boom\n') }) }),
    ]);
  });

  it('puts the ids of the work running now on each line, and none outside it', async () => {
    const capture = logCapture();
    const log = createLedgerLog({ ...settings, logLevel: 'log' }, capture);
    await withLogContext({ requestId: 'r-1', correlationId: 'c-1' }, async () => {
      await Promise.resolve();
      log.info({ position: 3 }, 'inside');
    });
    log.info('outside');
    expect(capture.lines[0]).toMatchObject({ requestId: 'r-1', correlationId: 'c-1', position: 3, msg: 'inside' });
    expect(capture.lines[1]).not.toHaveProperty('correlationId');
  });

  it('redacts credential headers and secrets in logged objects', () => {
    const capture = logCapture();
    const log = createLedgerLog({ ...settings, logLevel: 'log' }, capture);
    log.info({ req: { headers: { 'x-auth-token': 'tok-1', 'x-service-token': 'tok-2', authorization: 'Bearer tok-3', accept: 'application/json' } } }, 'a request');
    log.info({ headers: { 'x-subject-token': 'tok-4' }, auth: { password: 'pw-1', applicationCredentialSecret: 'sec-1' }, LEDGER_AUTH_SECRET: 'sec-2' }, 'settings');
    const text = JSON.stringify(capture.lines);
    for (const secret of ['tok-1', 'tok-2', 'tok-3', 'tok-4', 'pw-1', 'sec-1', 'sec-2']) expect(text).not.toContain(secret);
    expect(capture.lines[0]).toMatchObject({ req: { headers: { 'x-auth-token': '[redacted]', accept: 'application/json' } } });
  });
});
