import { normalizeHexId } from './fpga-id';

/** The shell an FPGA runs, as far as the ledger can tell: the PR bitstreams it takes are built for one of its interface ids. */
export interface DeviceShell {
  /** Normalised (normalizeHexId); empty when none is known, and then any bitstream fits. */
  readonly interfaceIds: readonly string[];
  /** `loaded`: the shell the ledger last loaded there (inventory.ShellProgrammed); `reported`: what the device's agent reads from it. */
  readonly source: 'loaded' | 'reported' | 'unknown';
}

/** What the inventory knows of a device's shell: the ledger's last load, and the agent's report (`board_info.interface_id`, a comma-separated list). */
export interface DeviceShellFacts {
  readonly loadedInterfaceId: string | null;
  readonly boardInfo: Readonly<Record<string, string>>;
}

/**
 * The shell the ledger loaded wins, since it checked what it loaded; before
 * any load, the interface ids the device reports count, so a device the
 * ledger never provisioned still takes only bitstreams built for its shell.
 */
export function deviceShellOf(facts: DeviceShellFacts): DeviceShell {
  if (facts.loadedInterfaceId !== null) return { interfaceIds: [normalizeHexId(facts.loadedInterfaceId)], source: 'loaded' };
  const reported = (facts.boardInfo['interface_id'] ?? '')
    .split(',')
    .map((id) => normalizeHexId(id.trim()))
    .filter((id) => id.length > 0);
  return reported.length > 0 ? { interfaceIds: reported, source: 'reported' } : { interfaceIds: [], source: 'unknown' };
}
