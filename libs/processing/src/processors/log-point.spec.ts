import type { RecordedEvent } from '@ledger/eventstore';
import { beyondPoint, parseLogPoint, PointPositionFollower, positionAtTime, reachedPoint, rebuildBoundOf } from './log-point';

/** Five events a second apart from 10:00:00, the second and third in the same millisecond. */
const LOG = ['10:00:00.000', '10:00:01.000', '10:00:01.000', '10:00:03.000', '10:00:04.000'].map(
  (time, index) => ({ position: index + 1, recordedAt: `2026-11-22T${time}Z` }) as RecordedEvent,
);
const store = {
  headPosition: async () => LOG.length,
  readAll: async ({ after = 0, max = 1 } = {}) => ({ events: LOG.slice(after, after + max), position: Math.min(after + max, LOG.length) }),
};

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

  it('resolves a time to the last event recorded at or before it, the same by search and by a forward read', async () => {
    const cases: Array<[string, number]> = [['09:59:59.999', 0], ['10:00:00.000', 1], ['10:00:02.500', 3], ['10:00:03.000', 4], ['11:00:00.000', 5]];
    for (const [time, expected] of cases) {
      const point = { time: `2026-11-22T${time}Z` };
      const follower = new PointPositionFollower(point);
      follower.follow(LOG.slice(0, 2));
      follower.follow(LOG.slice(2));
      expect({ time, searched: await positionAtTime(store, point.time), followed: follower.position }).toEqual({ time, searched: expected, followed: expected });
    }
    expect(new PointPositionFollower({ position: 2 }).position).toBe(2);
  });
});
