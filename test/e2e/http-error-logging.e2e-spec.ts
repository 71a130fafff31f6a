import { Logger, type LoggerService } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

describe('the log of errors the client caused', () => {
  let ledger: TestLedger;
  const lines: { level: string; text: string }[] = [];
  const at = (level: string) => (message: unknown) => lines.push({ level, text: String(message) });
  const capturing: LoggerService = { error: at('error'), warn: at('warn'), log: at('log'), debug: at('debug'), verbose: at('verbose'), fatal: at('fatal') };

  beforeAll(async () => {
    ledger = await startTestLedger();
    Logger.overrideLogger(capturing);
  });
  afterAll(async () => {
    Logger.overrideLogger(true);
    await ledger?.close();
  });

  it('holds no ERROR and no stack for a read that asks for a position the log has not reached', async () => {
    const position = String((await ledger.app.get<EventStore>(EVENT_STORE).headPosition()) + 1000);
    const response = await ledger.request('GET', '/api/v1/devices', { token: ledger.adminToken, headers: { 'x-ledger-min-position': position } });
    expect(response.status).toBe(503);
    expect(response.body.code).toBe('CONSISTENCY.NOT_CAUGHT_UP');
    const http = lines.filter((line) => line.text.includes('/api/v1/devices'));
    expect(http).toEqual([{ level: 'warn', text: expect.stringContaining('GET /api/v1/devices → 503 CONSISTENCY.NOT_CAUGHT_UP') }]);
    expect(http[0].text).not.toMatch(/\n\s+at /);
  });

  it('holds no ERROR for bad input', async () => {
    lines.length = 0;
    await ledger.request('GET', '/v2/accelerator_requests/%ZZ');
    await ledger.request('PUT', '/api/v1/hosts/x/report', { rawBody: '{', headers: { 'content-type': 'application/json' } });
    await ledger.request('DELETE', '/api/v1/devices');
    expect(lines.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
  });
});
