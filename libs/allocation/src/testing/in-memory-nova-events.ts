import { classifyHttpStatus } from '@ledger/processing';
import type { NovaEvents } from '../application/nova/nova-events.port';
import type { AcceleratorRequestBound } from '../domain/nova-notice';

/** Nova in memory, for fast tests: answers like the real one would with `status`, and keeps what it accepted. */
export class InMemoryNovaEvents implements NovaEvents {
  status = 200;
  readonly deliveries: { key: string; events: readonly AcceleratorRequestBound[] }[] = [];

  async acceleratorRequestsBound(events: readonly AcceleratorRequestBound[], options: { readonly key: string }): Promise<void> {
    const failure = classifyHttpStatus(this.status, 'Nova');
    if (failure) throw failure;
    this.deliveries.push({ key: options.key, events: [...events] });
  }
}
