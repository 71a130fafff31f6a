import type { DiscoveryLogger } from '../discovery/discovery-logger';
import type { SysfsReader, SysfsWrite } from '../discovery/sysfs-reader';
import type { RunCommand } from './run-command';

/** What the agent hands every driver (createDrivers' `deps`). */
export interface DriverDeps {
  /** Where sysfs is mounted: `/sys`, or a fixture tree in tests. */
  readonly sysfsRoot: string;
  readonly logger: DiscoveryLogger;
  /** How vendor tools run (run-command.ts); specs wrap it to record calls. */
  readonly runCommand: RunCommand;
  /** How images are downloaded; the runtime may wrap it to add the image service's token. */
  readonly fetch: typeof fetch;
  /** How sysfs attributes are written; default plain file writes. Specs pass the kernel emulator. */
  readonly sysfsWrite?: SysfsWrite;
  /** How the simulated driver waits out its configured latency; default setTimeout. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** What one driver works with: the deps, one shared sysfs view, and where it may keep files. */
export interface DriverContext {
  readonly sysfs: SysfsReader;
  readonly logger: DiscoveryLogger;
  readonly runCommand: RunCommand;
  readonly fetch: typeof fetch;
  readonly sleep: (ms: number) => Promise<void>;
  /** The agent's hostname (names of multi-deployable devices, the simulated driver's seed). */
  readonly hostname: string;
  /** This driver's own directory under the agent's state directory: downloads, bitstream cache. */
  readonly workDir: string;
  /** `<playbookDir>/<driver>/{install,uninstall}.yml`. */
  readonly playbooks: { readonly install: string; readonly uninstall: string };
}
