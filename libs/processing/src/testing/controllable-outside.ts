import type { RecordedEvent } from '@ledger/eventstore';
import type { ReactContext, Reactor } from '../reactors/reactor';
import { ReactorRejectedError, ReactorUnavailableError } from '../reactors/reactor.errors';

/**
 * A stand-in for an outside service a reactor talks to, under the test's
 * control: up or down, refusing chosen events, or holding a call open. It
 * records every call and keeps what it acknowledged deduplicated by event id,
 * as an idempotent outside would.
 */
export class ControllableOutside {
  up = true;
  /** Positions it refuses (as a 4xx would). */
  readonly refusing = new Set<number>();
  /** Every call, acknowledged or not, as `position` (batches as one entry per event). */
  readonly calls: number[] = [];
  /** Acknowledged event ids, each once, in first-acknowledged order. */
  readonly acknowledged: string[] = [];
  /** Called on every call: tests move a fake clock forward here. */
  onCall: () => void = () => {};
  private held: { position: number; release: Promise<void> } | undefined;

  /** Holds the next call for `position` open until the returned function is called (later calls pass). */
  hold(position: number): () => void {
    let release!: () => void;
    this.held = { position, release: new Promise<void>((resolve) => (release = resolve)) };
    return release;
  }

  /** The positions of the acknowledged events (found in `events`), in the order they were acknowledged. */
  positionsAcknowledged(events: readonly RecordedEvent[]): number[] {
    const positions = new Map(events.map((event) => [event.id, event.position]));
    return this.acknowledged.map((id) => positions.get(id) ?? -1);
  }

  async receive(events: readonly RecordedEvent[]): Promise<void> {
    this.onCall();
    this.calls.push(...events.map((event) => event.position));
    const held = this.held;
    if (held && events.some((event) => event.position === held.position)) {
      this.held = undefined;
      await held.release;
    }
    if (!this.up) throw new ReactorUnavailableError('outside down');
    const refused = events.find((event) => this.refusing.has(event.position));
    if (refused) throw new ReactorRejectedError(`outside refuses position ${refused.position}`);
    for (const event of events) if (!this.acknowledged.includes(event.id)) this.acknowledged.push(event.id);
  }

  /** A reactor that sends each event to this outside (and batches too, with `batches`). */
  reactor(options: { name?: string; batches?: boolean; startAt?: Reactor['startAt']; contexts?: ReactContext[] } = {}): Reactor {
    return {
      name: options.name ?? 'test-outside',
      handles: [],
      startAt: options.startAt,
      react: (event, context) => {
        options.contexts?.push(context);
        return this.receive([event]);
      },
      ...(options.batches ? { reactBatch: (events: readonly RecordedEvent[]) => this.receive(events) } : {}),
    };
  }
}
