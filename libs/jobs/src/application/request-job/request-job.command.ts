import type { CommandContext } from '@ledger/eventstore';
import { type JobOrigin, LedgerCommand } from '@ledger/kernel';
import type { RequestedJob } from '../requested-job';

/**
 * Asks a host's agent to do something (`POST /api/v1/hosts/{hostname}/jobs`).
 * INVENTORY.HOST_NOT_FOUND (404) for a host that never reported; JOB.INVALID
 * (400, `path` named) for an unknown kind, bad params or timeout;
 * JOB.AGENT_UNAVAILABLE (409) when the host's agent is lost or never ran.
 * A workflow names the job id (derived from its dispatch id) and its
 * origin: asking again for a job id that exists records nothing and
 * answers the job (position null).
 */
export class RequestJobCommand extends LedgerCommand<RequestedJob> {
  constructor(
    readonly input: {
      readonly hostname: string;
      readonly kind: unknown;
      readonly params: unknown;
      readonly timeoutSeconds?: unknown;
      /** Absent: a new UUIDv7. */
      readonly jobId?: string;
      readonly origin?: JobOrigin;
    },
    readonly context: CommandContext,
  ) {
    super();
  }
}
