import type { RecordedEvent } from '@ledger/eventstore';
import { summarizeDeviceEvent, TIMELINE_EVENT_TYPES } from './device-event-summary';

const event = (type: string, data: Record<string, unknown>) => ({ type, data }) as unknown as RecordedEvent;
const partition = { handle: 'MIG-5c89852c', hostname: 'h1', pciAddress: '0000:3b:00.0' };

describe('the device timeline names partitions', () => {
  it('shows every carve, idle period, reclaim and destroy on the device, each naming the partition', () => {
    for (const type of ['PartitionCarveReserved', 'PartitionCarveReleased', 'PartitionCarved', 'PartitionDestroyed', 'PartitionIdle', 'PartitionReclaimClaimed', 'PartitionReclaimReleased']) {
      expect(TIMELINE_EVENT_TYPES).toContain(`inventory.${type}`);
    }
    expect(summarizeDeviceEvent(event('inventory.PartitionCarved', { handle: 'MIG-5c89852c', profile: '1g.10gb', start: 2, slices: 1, bindId: 'b1' }))).toBe(
      'partition MIG-5c89852c (1g.10gb, slice 2) carved for bind b1',
    );
    expect(summarizeDeviceEvent(event('inventory.PartitionIdle', { handle: 'MIG-5c89852c', idleCount: 1, idleMs: 60000, afterClean: false }))).toBe(
      'partition MIG-5c89852c idle (period 1): reclaimed after 60000 ms unless used',
    );
    expect(summarizeDeviceEvent(event('inventory.PartitionReclaimClaimed', { handle: 'MIG-5c89852c', reclaimId: 'r1' }))).toBe('partition MIG-5c89852c held for its reclaim r1');
    expect(summarizeDeviceEvent(event('inventory.PartitionDestroyed', { handle: 'MIG-5c89852c', reason: 'reclaimed' }))).toBe('partition MIG-5c89852c destroyed (reclaimed)');
    expect(summarizeDeviceEvent(event('inventory.PartitionCarveReserved', { profile: '3g.40gb', start: 4, slices: 4, bindId: 'b2' }))).toBe('slices 4–7 set aside for a 3g.40gb partition (bind b2)');
  });

  it('names the partition a claim and its release are on, and nothing for a whole device’s handle', () => {
    expect(summarizeDeviceEvent(event('inventory.AttachHandleClaimed', { handleUuid: 'h1', arqUuid: 'a1', partition }))).toBe('handle h1 (partition MIG-5c89852c) claimed by request a1');
    expect(summarizeDeviceEvent(event('inventory.AttachHandleReleased', { handleUuid: 'h1', arqUuid: 'a1' }))).toBe('handle h1 released by request a1');
  });
});
