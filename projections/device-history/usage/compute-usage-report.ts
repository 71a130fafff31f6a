import type { KeyObject } from 'node:crypto';
import type { LogPoint, SqlExecutor } from '@ledger/processing';
import type { ProjectScope } from '../device-history.queries';
import { foldUsage } from './fold-usage';
import { type PositionTimes, resolveLogPoint } from './resolve-log-point';
import { signUsageReport, type UsageReport, usageReportBody } from './usage-report';
import { type UsageGroupBy, type UsageWindow, usageWindowOf } from './usage-window';
import { UsageQueries } from './usage.queries';

export async function resolveUsageWindow(log: PositionTimes, from: LogPoint, to: LogPoint): Promise<UsageWindow> {
  return usageWindowOf(await resolveLogPoint(log, from), await resolveLogPoint(log, to));
}

/**
 * A signed usage report from a device-history read model that has reached
 * `window.to.position` (live or rebuilt from an export): the one path both
 * take, so they give the same bytes. A tenant's report covers its project
 * only and says so in `project`; it is signed like an operator's.
 */
export async function computeUsageReport(
  db: SqlExecutor,
  window: UsageWindow,
  groupBy: UsageGroupBy,
  scope: ProjectScope,
  privateKey: KeyObject | undefined,
): Promise<UsageReport> {
  const rows = foldUsage(await new UsageQueries(db).heldIntervals(window, scope), window, groupBy);
  return signUsageReport(usageReportBody(window, groupBy, 'project' in scope ? scope.project : null, rows), privateKey);
}
