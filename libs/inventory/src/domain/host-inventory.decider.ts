import type { Decider } from '@ledger/kernel';
import { deviceFingerprint, hostFingerprint } from './fingerprint';
import type { HostReport } from './host-report';
import { evolveHostInventory, initialHostInventoryState, type HostInventoryState, type KnownDevice } from './host-inventory.state';
import type { HostInventoryEvent } from './inventory.events';
import { normalizeHostReport } from './normalize-host-report';
import { diffHostReport } from './report-diff';
import { snapshotReport } from './report-snapshot';

/** An agent's full picture of its host, as received by the ledger. */
export interface ReportHost {
  readonly type: 'ReportHost';
  readonly report: HostReport;
  /** When the ledger received the report (ISO-8601): the domain has no clock. */
  readonly receivedAt: string;
}

/**
 * The host aggregate (stream `host-<hostname>`): one report is one atomic
 * append. The first report registers the host; every report is diffed
 * against what the host stream says, and an unchanged report appends nothing.
 */
export const hostInventoryDecider: Decider<ReportHost, HostInventoryState, HostInventoryEvent> = {
  decide(command, state) {
    const report = normalizeHostReport(command.report);
    const fingerprints = report.devices.map(deviceFingerprint);
    const registered = state.hostname !== null;
    if (registered && hostFingerprint(fingerprints) === state.fingerprint) return [];
    const reported: KnownDevice[] = snapshotReport(report).map((snapshot, index) => ({ snapshot, fingerprint: fingerprints[index] }));
    const changes = diffHostReport(report.hostname, state.devices, reported);
    if (registered) return changes;
    return [{ type: 'inventory.HostRegistered', data: { hostname: report.hostname, registeredAt: command.receivedAt } }, ...changes];
  },
  evolve: evolveHostInventory,
  initialState: initialHostInventoryState,
};

/** The host's fingerprint once this report is accepted (the decider's "unchanged" test compares it with the host's). */
export const fingerprintOfReport = (report: HostReport): string => hostFingerprint(normalizeHostReport(report).devices.map(deviceFingerprint));
