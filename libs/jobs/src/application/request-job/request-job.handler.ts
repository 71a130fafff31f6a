import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { uuidV7 } from '@ledger/kernel';
import { AGENT_PRESENCE, type AgentPresenceLookup } from '../agent-presence.port';
import { assertHostKnown } from '../host-known';
import type { JobCommands } from '../job-commands';
import { JOB_COMMANDS } from '../jobs.tokens';
import type { RequestedJob } from '../requested-job';
import { offerOf } from '../dispatch-job/job-offer';
import { RequestJobCommand } from './request-job.command';
import { WAITING_POLLS, type WaitingPolls } from './waiting-polls.port';

@CommandHandler(RequestJobCommand)
export class RequestJobHandler implements ICommandHandler<RequestJobCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(JOB_COMMANDS) private readonly jobs: JobCommands,
    @Optional() @Inject(AGENT_PRESENCE) private readonly agentPresence?: AgentPresenceLookup,
    @Optional() @Inject(WAITING_POLLS) private readonly polls?: WaitingPolls,
  ) {}

  async execute({ input, context }: RequestJobCommand): Promise<RequestedJob> {
    await assertHostKnown(this.store, input.hostname);
    const { kind, params, timeoutSeconds, hostname, origin } = input;
    const agent = await this.agentPresence?.(hostname);
    const jobId = input.jobId ?? uuidV7();
    const requestedAt = new Date().toISOString();
    const poll = this.polls?.take(hostname);
    const handedTo = poll && { agentBoot: poll.agentBoot, at: requestedAt };
    const result = await this.jobs.run({ type: 'RequestJob', jobId, hostname, kind, params, timeoutSeconds, requestedAt, agent, origin, ...(handedTo ? { handedTo } : {}) }, context).catch((error: unknown) => {
      poll?.release();
      throw error;
    });
    // Recorded dispatched with its request: the poll answers with it. A repeat of a request recorded nothing.
    if (poll && result.appended > 0 && result.state.status === 'dispatched') poll.hand(offerOf(result.state));
    else poll?.release();
    return { jobId: jobId.toLowerCase(), position: result.position ?? null };
  }
}
