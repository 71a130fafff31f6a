import { deciderSpec } from '@ledger/eventstore/testing';
import { hostLivenessDecider, type MarkAgentLost, type RecordAgentSeen } from './host-liveness.decider';
import type { HostInventoryEvent, HostLivenessEvent } from './inventory.events';
import { a100 } from './testing/host-report.fixtures';

type Event = HostInventoryEvent | HostLivenessEvent;
const HOST = 'compute-1';
const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:00:45.000Z';
const T2 = '2026-03-01T10:01:00.000Z';
const T3 = '2026-03-01T10:02:00.000Z';
const spec = deciderSpec(hostLivenessDecider);

const registered: Event = { type: 'inventory.HostRegistered', data: { hostname: HOST, registeredAt: T0 } };
const lost: Event = { type: 'inventory.AgentLost', data: { hostname: HOST, lastSeenAt: T0, detectedAt: T1 } };
const back: Event = { type: 'inventory.AgentBack', data: { hostname: HOST, lostAt: T1, backAt: T2 } };
const seen = (seenAt: string): RecordAgentSeen => ({ type: 'RecordAgentSeen', hostname: HOST, seenAt });
const markLost = (lastSeenAt: string, detectedAt: string): MarkAgentLost => ({ type: 'MarkAgentLost', hostname: HOST, lastSeenAt, detectedAt });

describe('hostLivenessDecider', () => {
  it('refuses a heartbeat of a host that never reported', () => {
    spec.given([]).when(seen(T0)).thenThrows('INVENTORY.HOST_NOT_FOUND', { hostname: HOST });
  });

  it('appends nothing when a host that is up is seen', () => {
    spec.given([registered]).when(seen(T1)).then([]);
    spec.given([registered, lost, back]).when(seen(T3)).then([]);
  });

  it('marks an overdue host lost once, however often the monitor asks', () => {
    spec.given([registered]).when(markLost(T0, T1)).then([lost]);
    spec.given([registered, lost]).when(markLost(T0, T2)).then([]);
  });

  it('records the agent back on the first sight after a loss, once', () => {
    spec.given([registered, lost]).when(seen(T2)).then([back]);
    spec.given([registered, lost, back]).when(seen(T2)).then([]);
  });

  it('marks a host lost again after it came back and went silent', () => {
    spec
      .given([registered, lost, back])
      .when(markLost(T2, T3))
      .then([{ type: 'inventory.AgentLost', data: { hostname: HOST, lastSeenAt: T2, detectedAt: T3 } }]);
  });

  it('ignores a monitor reading older than a return already recorded', () => {
    spec.given([registered, lost, back]).when(markLost(T0, T3)).then([]);
  });

  it('ignores a loss of a host it does not know', () => {
    spec.given([]).when(markLost(T0, T1)).then([]);
  });

  it('knows the devices the host reports, by PCI address', () => {
    const gpu = a100('0000:3b:00.0');
    const discovered: Event = {
      type: 'inventory.DeviceDiscovered',
      data: { hostname: HOST, device: { ...gpu, uuid: 'd1', deployables: [] } },
    };
    const removed: Event = { type: 'inventory.DeviceRemoved', data: { hostname: HOST, deviceUuid: 'd1' } };
    expect([...spec.given([registered, discovered]).state.devices]).toEqual([['0000:3b:00.0', 'd1']]);
    expect(spec.given([registered, discovered, removed]).state.devices.size).toBe(0);
  });
});
