import type { InventoryCommandResult } from '@ledger/inventory';
import type { HostReportResponse } from './inventory.responses';

/** The report route's answer, by the full path and by the unchanged report's short cut alike. */
export const hostReportResponse = (hostname: string, result: InventoryCommandResult): HostReportResponse => ({
  hostname,
  appended: result.appended,
  position: result.position ?? null,
  events: [...result.eventTypes],
});
