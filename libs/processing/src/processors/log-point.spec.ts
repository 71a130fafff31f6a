import { beyondPoint, parseLogPoint, reachedPoint, rebuildBoundOf } from './log-point';

describe('log points', () => {
  it('reads digits as a position and a dated ISO-8601 value as a time', () => {
    expect(parseLogPoint('1200')).toEqual({ position: 1200 });
    expect(parseLogPoint('2026-11-22T10:00:00+01:00')).toEqual({ time: '2026-11-22T09:00:00.000Z' });
  });

  it('refuses anything else with a stable code naming the parameter', () => {
    for (const value of ['yesterday', '-1', '12:00', '', 'Tue Nov 24 2026']) {
      expect(() => parseLogPoint(value, 'from')).toThrow(expect.objectContaining({ code: 'AUDIT.BAD_LOG_POINT', status: 400, facts: { parameter: 'from', value } }));
    }
  });

  it('places events against a point, both ends included', () => {
    const event = { position: 5, recordedAt: '2026-11-22T10:00:00.000Z' };
    expect([reachedPoint(event, { position: 5 }), beyondPoint(event, { position: 5 }), beyondPoint(event, { position: 4 })]).toEqual([true, false, true]);
    expect([reachedPoint(event, { time: event.recordedAt }), beyondPoint(event, { time: event.recordedAt })]).toEqual([true, false]);
    expect(rebuildBoundOf({ position: 5 })).toEqual({ untilPosition: 5 });
    expect(rebuildBoundOf({ time: event.recordedAt })).toEqual({ untilTime: event.recordedAt });
  });
});
