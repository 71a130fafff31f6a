import type { CommandContext, EventStore, RecordedEvent } from '@ledger/eventstore';
import { foldEvents } from '@ledger/kernel';
import type { Reactor } from '@ledger/processing';
import type { DeviceCleaningPolicy } from '../clean-device/device-cleaning.policy';
import { hostFenceDecider, type HostFenceState } from '../../domain/host-fence.decider';
import type { HostFenceEvent, HostInventoryEvent } from '../../domain/inventory.events';
import { hostStream } from '../../domain/streams';
import { type RunOnDevice, settleHostFence } from './fence-host-devices';

export interface HostFenceReactorPorts {
  readonly store: Pick<EventStore, 'readStream'>;
  /** Runs the command on the device's stream (the inventory's device commands). */
  readonly runOnDevice: RunOnDevice;
  /** Whether what a fence releases on the device waits for a clean, as the fence handler asks it (none: nothing cleans). */
  readonly cleaning?: DeviceCleaningPolicy;
}

/**
 * The durable half of fencing and unfencing. The handler records the fence
 * on the host's stream, then fences each device in turn; a process killed in
 * between leaves devices that still hold their requests' handles on a host
 * that is fenced (or still fenced on one unfenced). After each HostFenced or
 * HostUnfenced this reactor brings every device of the host to the host's
 * fence as it stands now (not as the event had it: a fence undone since is
 * not brought back), which appends nothing where the handler got there
 * first; what it releases waits for a clean as the handler's would. Its
 * checkpoint is its pending work, so a crash loses none.
 */
export function hostFenceReactor(ports: HostFenceReactorPorts): Reactor {
  return {
    name: 'host-fence',
    handles: ['inventory.HostFenced', 'inventory.HostUnfenced'],
    filter: { categories: ['host'] },
    // From the beginning: a fence left half done before this reactor existed is completed too.
    startAt: 'beginning',
    async react(event) {
      const { hostname } = event.data as { hostname: string };
      const history = (await ports.store.readStream(hostStream(hostname))) as (RecordedEvent & (HostInventoryEvent | HostFenceEvent))[];
      const host: HostFenceState = foldEvents(hostFenceDecider, hostFenceDecider.initialState(), history);
      const context: CommandContext = {
        actor: { user: 'ledger:host-fence', project: null, roles: ['service'] },
        correlationId: event.metadata.correlationId,
        causationId: event.id,
      };
      await settleHostFence(ports.runOnDevice, host, context, ports.cleaning);
    },
  };
}
