import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { uuidV7 } from '@ledger/kernel';
import { AGENT_PRESENCE, type AgentPresenceLookup } from '../agent-presence.port';
import { assertHostKnown } from '../host-known';
import type { JobCommands } from '../job-commands';
import { JOB_COMMANDS } from '../jobs.tokens';
import type { RequestedJob } from '../requested-job';
import { RequestJobCommand } from './request-job.command';

@CommandHandler(RequestJobCommand)
export class RequestJobHandler implements ICommandHandler<RequestJobCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(JOB_COMMANDS) private readonly jobs: JobCommands,
    @Optional() @Inject(AGENT_PRESENCE) private readonly agentPresence?: AgentPresenceLookup,
  ) {}

  async execute({ input, context }: RequestJobCommand): Promise<RequestedJob> {
    await assertHostKnown(this.store, input.hostname);
    const { kind, params, timeoutSeconds, hostname, origin } = input;
    const agent = await this.agentPresence?.(hostname);
    const jobId = input.jobId ?? uuidV7();
    const result = await this.jobs.run({ type: 'RequestJob', jobId, hostname, kind, params, timeoutSeconds, requestedAt: new Date().toISOString(), agent, origin }, context);
    return { jobId: jobId.toLowerCase(), position: result.position ?? null };
  }
}
