import { ValidationError } from '@ledger/kernel';
import type { RecordedEvent } from '@ledger/eventstore';
import type { RebuildOptions } from './rebuild-processor';

/** A point in the global log: a position, or the last event recorded at or before a time. */
export type LogPoint = { readonly position: number } | { readonly time: string };

/** A value that names no point of the log (neither digits nor an ISO-8601 time); `parameter` says which input. */
export class InvalidLogPointError extends ValidationError {
  constructor(parameter: string, value: string) {
    super('AUDIT.BAD_LOG_POINT', `${parameter} ${value} is neither a position (digits) nor an ISO-8601 time (2026-11-22T10:00:00Z)`, { parameter, value });
  }
}

/**
 * Reads `asOf`, `from`, `to` and the CLI's `--as-of`: digits are a global
 * position, anything else must be an ISO-8601 time starting with a date.
 */
export function parseLogPoint(value: string, parameter = 'asOf'): LogPoint {
  if (/^\d+$/.test(value)) return { position: Number(value) };
  const time = new Date(value);
  if (Number.isNaN(time.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) throw new InvalidLogPointError(parameter, value);
  return { time: time.toISOString() };
}

/** The bound `rebuildProcessor` stops at for a point. */
export const rebuildBoundOf = (point: LogPoint): Pick<RebuildOptions, 'untilPosition' | 'untilTime'> =>
  'position' in point ? { untilPosition: point.position } : { untilTime: point.time };

type Placed = Pick<RecordedEvent, 'position' | 'recordedAt'>;

/** Whether an event is at or after a point (ISO-8601 UTC strings with milliseconds compare in time order). */
export const reachedPoint = (event: Placed, point: LogPoint): boolean =>
  'position' in point ? event.position >= point.position : event.recordedAt >= point.time;

/** Whether an event lies beyond a point: after its position, or recorded after its time. */
export const beyondPoint = (event: Placed, point: LogPoint): boolean =>
  'position' in point ? event.position > point.position : event.recordedAt > point.time;
