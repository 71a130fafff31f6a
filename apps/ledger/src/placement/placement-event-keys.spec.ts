import type { RecordedEvent } from '@ledger/eventstore';
import { placementEventKeys } from './placement-event-keys';

const event = (type: string, data: Record<string, unknown>, position = 1) => ({ type, data, position }) as unknown as RecordedEvent;

describe('placementEventKeys', () => {
  it('takes host names from host events and program requests, devices and jobs from the events that name only them', () => {
    const keys = placementEventKeys([
      event('inventory.DeviceDiscovered', { hostname: 'compute-1', device: { uuid: 'd1' } }),
      event('inventory.AgentLost', { hostname: 'compute-2', lastSeenAt: 'x', detectedAt: 'y' }),
      event('inventory.DeviceDisabled', { deviceUuid: 'd3', reason: null }),
      event('inventory.DeviceHealthChanged', { deviceUuid: 'd4', health: 'failed' }),
      event('jobs.JobRequested', { jobId: 'j1', hostname: 'compute-5', kind: 'program', params: {} }),
      event('jobs.JobRequested', { jobId: 'j2', hostname: 'compute-6', kind: 'discover', params: {} }),
      event('jobs.JobCompleted', { jobId: 'j1', evidence: {} }),
      event('jobs.JobFailed', { jobId: 'j3', code: 'c', reason: 'r', evidence: {} }),
    ]);
    expect(keys).toEqual({ hostnames: new Set(['compute-1', 'compute-2', 'compute-5']), deviceUuids: new Set(['d3', 'd4']), jobIds: new Set(['j1', 'j3']) });
  });
});
