import type { HostView } from '@ledger/projections/inventory';
import type { HostDriverView, JobView } from '@ledger/projections/jobs';
import { formatDiscoveryTable } from './discover-services.command';
import { formatDriverTable } from './driver-list.command';
import { formatServiceTable } from './service-list.command';

const driver = (overrides: Partial<HostDriverView>): HostDriverView => ({
  driver: 'simulated',
  status: 'installed',
  version: '2.5.0',
  installedAt: '2026-01-01T00:00:04.000Z',
  recap: { ok: 5 },
  lastJobId: 'j1',
  lastFailure: null,
  updatedAt: '2026-01-01T00:00:04.000Z',
  ...overrides,
});

const host = (overrides: Partial<HostView>): HostView => ({
  hostname: 'compute-1',
  registeredAt: '2026-01-01T00:00:00.000Z',
  lastReportAt: '2026-01-01T00:00:00.000Z',
  deviceCount: 2,
  status: 'active',
  agentStatus: 'up',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  fenced: false,
  fencedReason: null,
  fencedAt: null,
  ...overrides,
});

describe('generic-driver tables', () => {
  it('driver-list: one row per driver, dashes for what is unknown, the last failure at the end', () => {
    const text = formatDriverTable({
      hostname: 'compute-1',
      pending: [{ jobId: 'j9', kind: 'update-driver', driver: 'simulated', version: '2.6.0', state: 'dispatched' }],
      drivers: [
        driver({}),
        driver({
          driver: 'nvidia-gpu',
          status: 'failed',
          version: null,
          installedAt: null,
          lastFailure: { operation: 'install', reason: 'apt failed', failedAt: '2026-01-01T00:01:00.000Z' },
        }),
      ],
    });
    expect(text).toBe(
      [
        'host compute-1',
        'DRIVER      STATUS     VERSION  INSTALLED AT              LAST FAILURE',
        'simulated   installed  2.5.0    2026-01-01T00:00:04.000Z  -',
        'nvidia-gpu  failed     -        -                         install at 2026-01-01T00:01:00.000Z: apt failed',
        'pending: update-driver simulated 2.6.0 (job j9, dispatched)',
        '',
      ].join('\n'),
    );
    expect(formatDriverTable({ hostname: 'compute-2', drivers: [], pending: [] })).toBe('host compute-2: no drivers installed by driver jobs\n');
    expect(formatDriverTable({ hostname: 'compute-2', drivers: [], pending: [{ jobId: 'j1', kind: 'install-driver', driver: 'simulated', version: null, state: 'requested' }] })).toBe(
      'host compute-2: no drivers installed by driver jobs yet\npending: install-driver simulated (job j1, requested)\n',
    );
  });

  it('service-list: agent status, when last seen and how long ago, device count', () => {
    const now = Date.parse('2026-01-01T00:05:00.000Z');
    const text = formatServiceTable(
      [
        host({ lastSeenAt: '2026-01-01T00:04:57.000Z' }),
        host({ hostname: 'compute-22', agentStatus: 'lost', lastSeenAt: '2025-12-31T21:00:00.000Z', deviceCount: 0 }),
        host({ hostname: 'c3', agentStatus: 'unknown', lastSeenAt: null }),
      ],
      now,
    );
    expect(text).toBe(
      [
        'HOST        AGENT    LAST SEEN                           DEVICES',
        'compute-1   up       2026-01-01T00:04:57.000Z (3 s ago)  2',
        'compute-22  lost     2025-12-31T21:00:00.000Z (3 h ago)  0',
        'c3          unknown  -                                   2',
        '',
      ].join('\n'),
    );
    expect(formatServiceTable([], now)).toBe('no hosts have reported yet\n');
  });

  it('discover-services: per host the job requested, the devices found, the failure, or why it was skipped', () => {
    const job = (overrides: Partial<JobView>) => ({ jobId: 'j1', hostname: 'compute-1', state: 'completed', evidence: { devices: 4 }, code: null, reason: null, ...overrides }) as JobView;
    expect(formatDiscoveryTable([job({}), job({ hostname: 'c2', jobId: 'j2', state: 'failed', code: 'JOB.TIMED_OUT', reason: 'no result within 120 s', evidence: null })])).toBe(
      ['HOST       JOB  STATE      OUTCOME', 'compute-1  j1   completed  4 device(s)', 'c2         j2   failed     JOB.TIMED_OUT: no result within 120 s', ''].join('\n'),
    );
    const skipped = { hostname: 'c3', kind: 'discover', jobId: null, state: 'skipped', code: 'JOB.AGENT_UNAVAILABLE', reason: 'no agent has run on c3' } as const;
    expect(formatDiscoveryTable([{ hostname: 'compute-1', kind: 'discover', jobId: 'j1', position: 7 }, skipped])).toBe(
      ['HOST       JOB  STATE      OUTCOME', 'compute-1  j1   requested  -', 'c3         -    skipped    JOB.AGENT_UNAVAILABLE: no agent has run on c3', ''].join('\n'),
    );
  });
});
