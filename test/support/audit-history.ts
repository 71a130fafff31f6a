import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { appendTwoTenancies, type HeldSlot } from '../../projections/device-history/testing/tenancy-history';
import { hostReportBody } from './fleet';
import type { TestLedger } from './ledger-app';

/** A short history with three points an auditor asks about, and the FPGA slot two requests held in turn. */
export interface AuditHistory {
  readonly store: EventStore;
  readonly slot: HeldSlot;
  /** Before compute-7 reported: the host did not exist. */
  readonly beforeReport: number;
  /** After the report, before p1's quota and the two tenancies. */
  readonly beforeQuota: number;
  readonly head: number;
}

/**
 * Records, on a test ledger, compute-7's report, a quota for p1 and two
 * tenancies of its first FPGA slot (ARQ_1 in p1, then ARQ_2), noting the
 * positions between: what the REST and GraphQL suites of the auditor's
 * questions both ask about.
 */
export async function recordAuditHistory(ledger: TestLedger): Promise<AuditHistory> {
  const store = ledger.app.get<EventStore>(EVENT_STORE);
  const beforeReport = await store.headPosition();
  const reported = await ledger.request('PUT', '/api/v1/hosts/compute-7/report', { token: ledger.adminToken, body: hostReportBody(7, 0) });
  const wait = { 'x-ledger-min-position': String(reported.body.position) };
  const fpga = await ledger.request('GET', '/api/v1/deployables?resourceClass=FPGA', { token: ledger.adminToken, headers: wait });
  const deployable = await ledger.request('GET', `/api/v1/deployables/${fpga.body.items[0].uuid}`, { token: ledger.adminToken, headers: wait });
  const slot = { device: deployable.body.deviceUuid, deployable: deployable.body.uuid, handle: deployable.body.attachHandles[0].uuid };
  const beforeQuota = await store.headPosition();
  await ledger.request('PUT', '/api/v1/quotas/p1', { token: ledger.adminToken, body: { limits: { FPGA: 4 } } });
  await appendTwoTenancies(store, slot);
  return { store, slot, beforeReport, beforeQuota, head: await store.headPosition() };
}
