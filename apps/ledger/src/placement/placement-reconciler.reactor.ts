import type { RecordedEvent } from '@ledger/eventstore';
import type { PlacementReconciler } from '@ledger/placement';
import { PositionNotReachedError, type Reactor, ReactorUnavailableError } from '@ledger/processing';
import { placementProjection } from '@ledger/projections/placement';
import { placementEventKeys } from './placement-event-keys';

export interface PlacementReconcilerReactorPorts {
  readonly reconciler: Pick<PlacementReconciler, 'reconcileHosts'>;
  /** Resolves once the projections include `position` (rejects with PositionNotReachedError after a while). */
  readonly projectionsReached: (position: number) => Promise<void>;
  /** The hosts of devices and program jobs, from the placement read model. */
  readonly hostsOf: (keys: { readonly deviceUuids: Iterable<string>; readonly jobIds: Iterable<string> }) => Promise<readonly string[]>;
}

/**
 * Reconciles the hosts whose desired placement the log just changed
 * (docs/placement.md "Reconciler"), as a reactor on the placement
 * projection's events: it waits until the projections include the batch
 * (the reconciler reads the desired state from the read model), finds the
 * hosts the events name, and has the reconciler make Placement hold their
 * state. A Placement that does not answer makes the batch *unavailable*:
 * retried with backoff, never parked, and no command waits for it. Hosts
 * Placement refused (`failed`) are acknowledged: the periodic compare
 * retries them and their status says why. It starts at the log's head: the
 * compare at start covers everything recorded before.
 */
export function placementReconcilerReactor(ports: PlacementReconcilerReactorPorts): Reactor {
  const reconcile = async (events: readonly RecordedEvent[]): Promise<void> => {
    const position = events[events.length - 1].position;
    try {
      await ports.projectionsReached(position);
    } catch (error) {
      if (error instanceof PositionNotReachedError) throw new ReactorUnavailableError(`the projections have not reached position ${position} yet`);
      throw error;
    }
    const keys = placementEventKeys(events);
    const hostnames = [...keys.hostnames, ...(await ports.hostsOf(keys))];
    if (hostnames.length === 0) return;
    const down = (await ports.reconciler.reconcileHosts(hostnames)).filter((status) => status.state === 'placement-unavailable');
    if (down.length > 0) {
      throw new ReactorUnavailableError(`Placement is unavailable (${down.map((status) => status.hostname).join(', ')} not reconciled): ${down[0].detail ?? ''}`, {
        hostnames: down.map((status) => status.hostname),
      });
    }
  };
  return {
    name: 'placement-reconciler',
    handles: placementProjection.handles,
    filter: placementProjection.filter,
    startAt: 'head',
    react: (event) => reconcile([event]),
    reactBatch: (events) => reconcile(events),
  };
}
