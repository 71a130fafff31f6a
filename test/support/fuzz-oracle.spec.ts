import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedEvent } from '@ledger/eventstore';
import { checkAnswer, documentedCodes, type Outcome } from './fuzz-oracle';

const codes = documentedCodes(readFileSync(join(__dirname, '../../docs/errors.md'), 'utf8'));
const answer = (status: number, code?: string, body: unknown = code ? { code } : {}): Outcome => ({
  kind: 'answer',
  status,
  headers: code ? { 'x-error-code': code } : {},
  body: JSON.stringify(body),
});
const event = (type: string) => ({ type }) as RecordedEvent;

describe("the fuzzer's oracle", () => {
  it('reads every HTTP code of docs/errors.md with its status, and leaves out codes that are no HTTP answer', () => {
    expect(codes.get('REQUEST.INVALID')).toBe(400);
    expect(codes.get('ARQ.NOT_RESOLVED')).toBe(423);
    expect(codes.get('INTERNAL')).toBeUndefined(); // one segment: no code a 4xx may carry
    expect(codes.has('JOB.TIMED_OUT')).toBe(false);
    expect(codes.has('DRIVER.TOOL_FAILED')).toBe(false);
    expect(codes.size).toBeGreaterThan(60);
  });

  it('passes a documented 4xx that recorded nothing, and any 2xx', () => {
    expect(checkAnswer(answer(404, 'ARQ.NOT_FOUND'), 'native', codes, [])).toBeUndefined();
    expect(checkAnswer(answer(201), 'v2', codes, [event('allocation.ArqCreated')])).toBeUndefined();
  });

  it.each<[string, Outcome, 'native' | 'v2', string[], RegExp]>([
    ['a 5xx', answer(500, 'INTERNAL'), 'native', [], /^500/],
    ['a 503 the docs list', answer(503, 'CONSISTENCY.NOT_CAUGHT_UP'), 'native', [], /^503/],
    ['a hang', { kind: 'hang' }, 'native', [], /hang/],
    ['a broken connection', { kind: 'error', message: 'socket hang up' }, 'native', [], /socket hang up/],
    ['a 4xx without a code', answer(400), 'v2', [], /without X-Error-Code/],
    ['an undocumented code', answer(400, 'REQUEST.NOPE'), 'v2', [], /not in docs\/errors.md/],
    ['a documented code with another status', answer(400, 'ARQ.NOT_FOUND'), 'v2', [], /docs\/errors.md gives 404/],
    ['a native problem whose body has another code', answer(404, 'ARQ.NOT_FOUND', { code: 'JOB.NOT_FOUND' }), 'native', [], /body's code/],
    ['a refusal that appended', answer(400, 'ARQ.INVALID'), 'v2', ['allocation.ArqBindStarted'], /appended allocation.ArqBindStarted/],
  ])('flags %s', (_what, outcome, api, appended, expected) => {
    expect(checkAnswer(outcome, api, codes, appended.map(event))).toMatch(expected);
  });

  it('lets the documented traces append', () => {
    expect(checkAnswer(answer(409, 'ARQ.BIND_FAILED'), 'v2', codes, [event('allocation.ArqBindStarted'), event('allocation.ArqBindFailed')])).toBeUndefined();
  });
});
