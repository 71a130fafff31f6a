import type { EventFilter } from '@ledger/eventstore';
import type { Processor } from './processor';

/** The store-side filter for a processor's reads; empty `handles` reads every type. */
export function processorFilter(processor: Pick<Processor, 'handles' | 'filter'>): EventFilter {
  return {
    types: processor.handles.length > 0 ? processor.handles : undefined,
    categories: processor.filter?.categories,
  };
}
