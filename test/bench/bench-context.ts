import type { BenchSizes } from './bench-sizes';
import { buildInventoryLog, type InventoryLog } from './fixtures/inventory-log';
import type { BenchTarget } from './targets/bench-target';

/** What a module gets for one store. */
export interface BenchContext {
  readonly target: BenchTarget;
  readonly sizes: BenchSizes;
  /** A progress line on stderr, prefixed with the store. */
  progress(message: string): void;
  /** The realistic inventory log on this store, built on first use and shared by every module. */
  inventoryLog(): Promise<InventoryLog>;
}

export function createBenchContext(target: BenchTarget, sizes: BenchSizes, progress: (message: string) => void): BenchContext {
  let log: Promise<InventoryLog> | undefined;
  const storeProgress = (message: string) => progress(`${target.name}: ${message}`);
  return {
    target,
    sizes,
    progress: storeProgress,
    inventoryLog: () => (log ??= buildInventoryLog(target, sizes, storeProgress)),
  };
}
