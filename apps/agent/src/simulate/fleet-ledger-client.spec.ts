import { LedgerCallError } from '../runtime/ledger-call.error';
import type { LedgerClient } from '../runtime/ledger-client';
import { type ReportDelivery, FleetLedgerClient } from './fleet-ledger-client';
import { FleetStats } from './fleet-stats';
import { RequestLimiter } from './request-limiter';

const HEARTBEAT = { agentVersion: '0.1.0', intervalSeconds: 15, devices: [] };

function fleetClient(inner: Partial<Pick<LedgerClient, 'report' | 'heartbeat'>>) {
  let now = 1000;
  const clock = () => now;
  const stats = new FleetStats(clock);
  const deliveries: ReportDelivery[] = [];
  const client = new FleetLedgerClient('sim-00001', inner as Pick<LedgerClient, 'report' | 'heartbeat'>, {
    limiter: new RequestLimiter(1),
    stats,
    onReport: (delivery) => deliveries.push(delivery),
    now: clock,
  });
  return { client, stats, deliveries, advance: (ms: number) => (now += ms) };
}

describe('FleetLedgerClient', () => {
  it('passes a report through, counts it and tells who listens when it left and came back', async () => {
    const answer = { hostname: 'sim-00001', appended: 2, position: 41, events: ['inventory.DeviceChanged'] };
    let advance!: (ms: number) => number;
    const fleet = fleetClient({
      report: async () => {
        advance(12);
        return answer;
      },
    });
    advance = fleet.advance;

    await expect(fleet.client.report([])).resolves.toBe(answer);

    expect(fleet.deliveries).toEqual([{ hostname: 'sim-00001', sentAtMs: 1000, answeredAtMs: 1012, answer }]);
    expect(fleet.stats.takePeriod()).toMatchObject({ reports: 1, changedReports: 1, errors: 0, p99Ms: 12 });
  });

  it('counts a failure by its code and passes it on for the loops to handle', async () => {
    const refused = new LedgerCallError('refused', 'POST /api/v1/hosts/sim-00001/heartbeat', 'INVENTORY.HOST_NOT_FOUND: report first', 404, 'INVENTORY.HOST_NOT_FOUND');
    const fleet = fleetClient({
      heartbeat: () => Promise.reject(refused),
      report: () => Promise.reject(new LedgerCallError('unreachable', 'PUT /api/v1/hosts/sim-00001/report', 'cannot reach the ledger (ECONNREFUSED)')),
    });

    await expect(fleet.client.heartbeat(HEARTBEAT)).rejects.toBe(refused);
    await expect(fleet.client.report([])).rejects.toThrow('ECONNREFUSED');

    expect(fleet.deliveries).toEqual([]);
    expect(fleet.stats.takePeriod()).toMatchObject({ heartbeats: 0, reports: 0, errors: 2, errorCodes: { 'INVENTORY.HOST_NOT_FOUND': 1, UNREACHABLE: 1 } });
  });
});
