import { deciderSpec } from '@ledger/eventstore/testing';
import { type FenceHost, hostFenceDecider, type UnfenceHost } from './host-fence.decider';
import type { HostFenceEvent, HostInventoryEvent } from './inventory.events';

type Event = HostInventoryEvent | HostFenceEvent;
const HOST = 'compute-1';
const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:05:00.000Z';
const T2 = '2026-03-01T11:00:00.000Z';
const spec = deciderSpec(hostFenceDecider);

const registered: Event = { type: 'inventory.HostRegistered', data: { hostname: HOST, registeredAt: T0 } };
const fenced: Event = { type: 'inventory.HostFenced', data: { hostname: HOST, reason: 'PSU dead', by: 'admin-1', at: T1 } };
const unfenced: Event = { type: 'inventory.HostUnfenced', data: { hostname: HOST, fencedAt: T1, by: 'admin-1', at: T2 } };
const fence = (reason: string, at = T1): FenceHost => ({ type: 'FenceHost', hostname: HOST, reason, by: 'admin-1', at });
const unfence = (at = T2): UnfenceHost => ({ type: 'UnfenceHost', hostname: HOST, by: 'admin-1', at });

describe('hostFenceDecider', () => {
  it('refuses to fence or unfence a host that never reported', () => {
    spec.given([]).when(fence('PSU dead')).thenThrows('INVENTORY.HOST_NOT_FOUND', { hostname: HOST });
    spec.given([]).when(unfence()).thenThrows('INVENTORY.HOST_NOT_FOUND', { hostname: HOST });
  });

  it('fences a host, recording why, who and when', () => {
    spec.given([registered]).when(fence('PSU dead')).then([fenced]);
  });

  it('appends nothing when a fenced host is fenced again: the first reason stands', () => {
    spec.given([registered, fenced]).when(fence('another reason', T2)).then([]);
  });

  it('unfences a fenced host, naming the fence it ends', () => {
    spec.given([registered, fenced]).when(unfence()).then([unfenced]);
  });

  it('refuses to unfence a host that is not fenced', () => {
    spec.given([registered]).when(unfence()).thenThrows('INVENTORY.HOST_NOT_FENCED', { hostname: HOST });
    spec.given([registered, fenced, unfenced]).when(unfence()).thenThrows('INVENTORY.HOST_NOT_FENCED', { hostname: HOST });
  });

  it('fences a host again after it was unfenced', () => {
    const again: Event = { type: 'inventory.HostFenced', data: { hostname: HOST, reason: 'again', by: 'admin-1', at: T2 } };
    spec.given([registered, fenced, unfenced]).when(fence('again', T2)).then([again]);
  });
});
