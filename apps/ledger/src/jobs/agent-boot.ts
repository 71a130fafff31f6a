import { isUuid, ValidationError } from '@ledger/kernel';

/** Request header of the long poll: a uuid the agent draws at start-up (docs/agent-protocol.md, "Jobs"). */
export const AGENT_BOOT_HEADER = 'x-agent-boot';

/** The agent boot a poll names, lower-cased, or null when it names none. */
export function agentBootOf(header: string | string[] | undefined): string | null {
  if (header === undefined || header === '') return null;
  if (typeof header !== 'string' || !isUuid(header)) {
    throw new ValidationError('REQUEST.INVALID', `${AGENT_BOOT_HEADER} must be a uuid`, { header: AGENT_BOOT_HEADER });
  }
  return header.toLowerCase();
}
