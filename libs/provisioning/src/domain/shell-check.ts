import { ShellMismatchError } from './provisioning.errors';

/** The registry's record of a shell image: what the agent must read back once it is loaded. */
export interface RegisteredShell {
  readonly bitstreamId: string;
  readonly sha256: string;
  /** The interface id the loaded shell offers (the PR bitstreams it takes). */
  readonly interfaceId: string;
}

/**
 * Checks a shell program job's evidence against the registry's record:
 * the checksum of the image the agent loaded and the interface id it read
 * back. Throws PROVISION.SHELL_MISMATCH naming the first difference; an
 * agent that does not report one of them cannot prove the load, so that
 * is a mismatch too.
 */
export function verifyShell(expected: RegisteredShell, evidence: unknown): { readonly sha256: string; readonly interfaceId: string } {
  const read = (evidence ?? {}) as { sha256?: unknown; interfaceId?: unknown };
  for (const member of ['sha256', 'interfaceId'] as const) {
    if (read[member] !== expected[member]) {
      throw new ShellMismatchError(`the loaded shell's ${member} is ${JSON.stringify(read[member] ?? null)}, bitstream ${expected.bitstreamId} is registered with ${expected[member]}`, {
        bitstreamId: expected.bitstreamId,
        member,
        expected: expected[member],
        actual: read[member] ?? null,
      });
    }
  }
  return { sha256: expected.sha256, interfaceId: expected.interfaceId };
}
