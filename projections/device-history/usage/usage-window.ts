import { ValidationError } from '@ledger/kernel';

/** A point of the log resolved both ways: the last position at or before it, and the time the window's edge falls on. */
export interface ResolvedPoint {
  readonly position: number;
  readonly time: string;
}

/** The period a usage report covers, [from.time, to.time); nothing recorded after `to.position` is read. */
export interface UsageWindow {
  readonly from: ResolvedPoint;
  readonly to: ResolvedPoint;
}

export const USAGE_GROUP_BYS = ['project', 'resourceClass', 'device'] as const;
export type UsageGroupBy = (typeof USAGE_GROUP_BYS)[number];

export class BadUsageGroupByError extends ValidationError {
  constructor(value: string) {
    super('USAGE.BAD_GROUP_BY', `groupBy ${value} is not one of ${USAGE_GROUP_BYS.join(', ')}`, { value, allowed: USAGE_GROUP_BYS });
  }
}

export class ReversedUsageWindowError extends ValidationError {
  constructor(from: ResolvedPoint, to: ResolvedPoint) {
    super('USAGE.BAD_WINDOW', `from (${from.time}, position ${from.position}) is after to (${to.time}, position ${to.position})`, { from, to });
  }
}

export class UsagePeriodNotOverError extends ValidationError {
  constructor(to: string, now: string) {
    super('USAGE.PERIOD_NOT_OVER', `to ${to} is later than now (${now}): usage of a period not over yet would count open tenancies into the future`, { to, now });
  }
}

/** A report is of a period that has ended: its caller passes its clock (the computation itself reads none). */
export function assertUsagePeriodOver(window: UsageWindow, now: Date): void {
  if (window.to.time > now.toISOString()) throw new UsagePeriodNotOverError(window.to.time, now.toISOString());
}

export function parseUsageGroupBy(value: string | undefined | null): UsageGroupBy {
  if (value === undefined || value === null) return 'project';
  if (!(USAGE_GROUP_BYS as readonly string[]).includes(value)) throw new BadUsageGroupByError(value);
  return value as UsageGroupBy;
}

export function usageWindowOf(from: ResolvedPoint, to: ResolvedPoint): UsageWindow {
  if (from.time > to.time || from.position > to.position) throw new ReversedUsageWindowError(from, to);
  return { from, to };
}
