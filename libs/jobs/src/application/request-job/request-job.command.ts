import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import type { RequestedJob } from '../requested-job';

/**
 * Asks a host's agent to do something (`POST /api/v1/hosts/{hostname}/jobs`).
 * INVENTORY.HOST_NOT_FOUND (404) for a host that never reported; JOB.INVALID
 * (400, `path` named) for an unknown kind, bad params or timeout;
 * JOB.AGENT_UNAVAILABLE (409) when the host's agent is lost or never ran.
 */
export class RequestJobCommand extends Command<RequestedJob> {
  constructor(
    readonly input: { readonly hostname: string; readonly kind: unknown; readonly params: unknown; readonly timeoutSeconds?: unknown },
    readonly context: CommandContext,
  ) {
    super();
  }
}
