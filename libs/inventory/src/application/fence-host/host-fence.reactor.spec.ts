import type { RecordedEvent } from '@ledger/eventstore';
import { InMemoryEventStore, testEvent } from '@ledger/processing/testing';
import type { FenceDevice, UnfenceDevice } from '../../domain/device.decider';
import { hostFenceReactor } from './host-fence.reactor';

const HOST = 'compute-half-fenced';
const DEVICES = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
const CONTEXT = { attempt: 1, signal: new AbortController().signal };
const FENCED = { hostname: HOST, reason: 'PSU dead', by: 'mia', at: '2026-11-29T06:00:00.000Z' };

describe('host-fence reactor: the durable half of a fence', () => {
  let store: InMemoryEventStore;
  let sent: (FenceDevice | UnfenceDevice)[];
  // The first device's type cleans, the second's does not.
  const cleaning = { cleansAfterRelease: async (deviceUuid: string) => deviceUuid === DEVICES[0] };
  const reactor = () => hostFenceReactor({ store, runOnDevice: async (command) => void sent.push(command), cleaning });
  const append = async (type: string, data: unknown): Promise<RecordedEvent> => {
    await store.append(`host-${HOST}`, [testEvent(type, data)], { expected: 'any' });
    return (await store.readStream(`host-${HOST}`)).at(-1)!;
  };

  beforeEach(async () => {
    store = new InMemoryEventStore();
    sent = [];
    await append('inventory.HostRegistered', { hostname: HOST });
    for (const uuid of DEVICES) await append('inventory.DeviceDiscovered', { hostname: HOST, device: { uuid } });
  });

  it('fences every device of a fenced host with the fence in force, what it releases pending a clean where the type cleans', async () => {
    const fenced = await append('inventory.HostFenced', FENCED);
    await reactor().react(fenced, CONTEXT);
    expect(sent).toEqual(DEVICES.map((deviceUuid, i) => ({ type: 'FenceDevice', deviceUuid, hostname: HOST, reason: 'PSU dead', fencedAt: FENCED.at, clean: i === 0 })));
  });

  it('brings the devices to the fence as it stands now: a HostFenced undone since unfences them', async () => {
    const fenced = await append('inventory.HostFenced', FENCED);
    await append('inventory.HostUnfenced', { hostname: HOST, fencedAt: FENCED.at, by: 'mia', at: '2026-11-29T06:05:00.000Z' });
    await reactor().react(fenced, CONTEXT);
    expect(sent).toEqual(DEVICES.map((deviceUuid) => ({ type: 'UnfenceDevice', deviceUuid, hostname: HOST })));
  });

  it('reacts to fences and unfences of hosts only', () => {
    expect([reactor().handles, reactor().filter]).toEqual([['inventory.HostFenced', 'inventory.HostUnfenced'], { categories: ['host'] }]);
  });
});
