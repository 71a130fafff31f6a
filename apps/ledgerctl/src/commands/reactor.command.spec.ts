import { CliError } from '../support/cli-error';
import { describeRetry, formatParkedTable, formatReactorTable, parsePosition } from './reactor.command';

describe('ledgerctl reactor', () => {
  it('prints one row per reactor, with since when its outside is down', () => {
    const table = formatReactorTable([
      { name: 'nova-notifier', state: 'unavailable', position: 41, lag: 3, parked: 1, failures: 7, lastError: 'Nova answered 503', unavailableSince: '2026-03-01T10:00:00.000Z' },
      { name: 'placement', state: 'live', position: 44, lag: 0, parked: 0, failures: 0 },
    ]);
    expect(table.split('\n')).toEqual([
      'REACTOR        STATE        POSITION  LAG  PARKED  UNAVAILABLE SINCE         LAST ERROR',
      'nova-notifier  unavailable  41        3    1       2026-03-01T10:00:00.000Z  Nova answered 503',
      'placement      live         44        0    0       -                         -',
      '',
    ]);
    expect(formatReactorTable([])).toContain('no reactors');
  });

  it('prints parked events with their error, marking a requested retry', () => {
    const table = formatParkedTable([
      {
        reactor: 'nova-notifier', position: 12, eventId: 'e', type: 'allocation.ArqBound', stream: 'arq-1', error: 'Nova answered 400',
        attempts: 5, firstFailedAt: '2026-03-01T10:00:00.000Z', lastFailedAt: '2026-03-01T10:00:09.000Z', retryRequestedAt: '2026-03-01T11:00:00.000Z',
      },
    ]);
    expect(table).toContain('12        allocation.ArqBound  arq-1   5         2026-03-01T10:00:09.000Z  (retry requested) Nova answered 400');
    expect(formatParkedTable([])).toBe('nothing parked\n');
  });

  it('says what a retry did', () => {
    expect(describeRetry('nova-notifier', { outcome: 'delivered', position: 12 })).toContain('delivered and is no longer parked');
    expect(describeRetry('nova-notifier', { outcome: 'failed', error: 'Nova answered 400', position: 12 })).toContain('stays parked: Nova answered 400');
    expect(describeRetry('nova-notifier', { outcome: 'requested', position: 12 })).toContain('another ledger instance');
  });

  it('refuses a position that is not a positive integer with exit code 2', () => {
    expect(parsePosition('12')).toBe('12');
    for (const bad of ['0', '-1', '1.5', 'x', '']) {
      expect(() => parsePosition(bad)).toThrow(CliError);
      try {
        parsePosition(bad);
      } catch (error) {
        expect((error as CliError).exitCode).toBe(2);
      }
    }
  });
});
