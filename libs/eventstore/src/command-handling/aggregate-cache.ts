/**
 * A bounded, least-recently-used map of folded aggregate states. States are
 * treated as immutable (evolve returns new objects), so sharing them is safe.
 * A stale entry is harmless: the loader reads the stream's tail after it.
 */
export class AggregateCache<State> {
  private readonly entries = new Map<string, { state: State; version: number }>();

  constructor(private readonly capacity = 50_000) {}

  get(stream: string): { state: State; version: number } | undefined {
    const entry = this.entries.get(stream);
    if (entry) {
      this.entries.delete(stream);
      this.entries.set(stream, entry);
    }
    return entry;
  }

  set(stream: string, state: State, version: number): void {
    this.entries.delete(stream);
    this.entries.set(stream, { state, version });
    if (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  delete(stream: string): void {
    this.entries.delete(stream);
  }
}
