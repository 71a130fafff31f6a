import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SimulatedMig } from './simulated-mig';

type Partitions = SimulatedMig['partitions'];

/**
 * The simulated GPUs' MIG layouts kept in a file (`persistMig`), so an
 * agent killed and started again finds the GPU instances it carved, as a
 * real GPU keeps them while its agent restarts. Written whole on every
 * change by rename (a kill leaves the old layout or the new one); not
 * fsynced: the file models the GPU, which an agent's crash does not reset,
 * and the machine's own crash is out of its scope.
 */
export interface SimulatedMigStore {
  /** The partitions the file holds for the GPU at `address`; none when it holds nothing. */
  load(address: string): Partitions;
  save(layouts: ReadonlyMap<string, SimulatedMig>): void;
}

export function simulatedMigStore(file: string): SimulatedMigStore {
  const saved: Record<string, Partitions> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Partitions>) : {};
  return {
    load: (address) => saved[address] ?? [],
    save(layouts) {
      const content = Object.fromEntries([...layouts].map(([address, mig]) => [address, mig.partitions]));
      mkdirSync(dirname(file), { recursive: true });
      const temporary = `${file}.tmp-${process.pid}`;
      writeFileSync(temporary, JSON.stringify(content));
      renameSync(temporary, file);
    },
  };
}
