import { type EventStore, matchesFilter, type ReadAllOptions, type ReadAllResult, type RecordedEvent } from '@ledger/eventstore';

/** Events kept behind the live edge, beyond those of the last read: enough for every live processor of one append burst. */
const DEFAULT_CAPACITY = 1000;

/**
 * The newest stretch of the log, read once for every processor of the
 * process. After an append each live processor asks the log for what
 * follows its position; without this each asked the store itself, one
 * filtered read per processor per append. Here the first to ask at the
 * window's end reads the new events once, unfiltered, and every processor
 * (projection, reactor, workflow) is served its filtered window from
 * memory, with the same answer the store would give: the events matching
 * the filter among the next `max` positions, and how far that scanned.
 *
 * Holds every event in (start, end]; `end` is a position an unfiltered
 * store read returned, so it never passes an event a concurrent writer
 * could still commit. A processor behind the window (catching up,
 * rebuilding) reads the store directly with its filter; one that arrives
 * past the window's end (it caught up on its own) moves the window there,
 * so the window follows the live edge, not the slowest processor.
 */
export class SharedLogTail {
  private events: RecordedEvent[] = [];
  private start = -1;
  private end = -1;
  private extending: Promise<void> | undefined;

  /** Reads served from the window, without moving it: a checkpoint's chain hash, looked up by position. */
  readonly lookups: Pick<EventStore, 'readAll'> = {
    readAll: async (options = {}) => this.served(options) ?? this.store.readAll(options),
  };

  constructor(
    readonly store: Pick<EventStore, 'readAll' | 'waitForAppend' | 'headPosition'>,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  /** A processor loop's read after its position: from the window, extended first when the reader stands at its end. */
  async readAll(options: ReadAllOptions = {}): Promise<ReadAllResult> {
    const after = options.after ?? 0;
    if (after > this.end) this.restartAt(after);
    if (after === this.end) await this.extend(options.max ?? 1000);
    return this.served(options) ?? this.store.readAll(options);
  }

  private restartAt(position: number): void {
    this.events = [];
    this.start = position;
    this.end = position;
  }

  /** One unfiltered read after the window's end, shared by every reader that arrives while it runs. */
  private extend(max: number): Promise<void> {
    if (!this.extending) {
      const from = this.end;
      this.extending = this.store
        .readAll({ after: from, max })
        .then((result) => {
          // A restart while it ran (a reader came from past the end) made this read stale.
          if (this.end === from) this.add(result);
        })
        .finally(() => {
          this.extending = undefined;
        });
    }
    return this.extending;
  }

  private add(result: ReadAllResult): void {
    this.events.push(...result.events);
    this.end = result.position;
    const keep = Math.max(this.capacity, result.events.length);
    if (this.events.length <= keep) return;
    const dropped = this.events.splice(0, this.events.length - keep);
    this.start = dropped[dropped.length - 1].position;
  }

  /** The store's answer computed from the window, or undefined when the window does not hold the positions after `after`. */
  private served(options: ReadAllOptions): ReadAllResult | undefined {
    const after = options.after ?? 0;
    const max = options.max ?? 1000;
    if (after < this.start || after > this.end) return undefined;
    const first = firstAfter(this.events, after);
    const scanned = this.events.slice(first, first + max);
    const position = scanned.length > 0 && scanned.length === max ? scanned[max - 1].position : this.end;
    const events = options.filter ? scanned.filter((event) => matchesFilter(event, options.filter)) : scanned;
    return { events, position };
  }
}

/** Binary search: the index of the first event past `position` (events are in position order). */
function firstAfter(events: readonly RecordedEvent[], position: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (events[middle].position <= position) low = middle + 1;
    else high = middle;
  }
  return low;
}
