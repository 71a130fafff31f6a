import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { hostStream } from '@ledger/inventory';
import { uuidV7 } from '@ledger/kernel';
import { PROGRAMMING_SETTINGS, type ProgrammingSettings } from '@ledger/programming';
import { PROVISION_WORKFLOWS, type ProvisionWorkflows } from '../provisioning.ports';
import { ProvisionHostCommand, type ProvisionStarted } from './provision-host.command';
import { planProvisioning } from './provision-plan';
import { PROVISION_WORKFLOW } from './provision-workflow';

/** Provisioning takes minutes (a boot, a shell load): it is not cancelled with the HTTP request that started it. */
const NEVER_ABORTED = new AbortController().signal;

@CommandHandler(ProvisionHostCommand)
export class ProvisionHostHandler implements ICommandHandler<ProvisionHostCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROVISION_WORKFLOWS) private readonly workflows: ProvisionWorkflows,
    @Inject(PROGRAMMING_SETTINGS) private readonly programming: ProgrammingSettings,
  ) {}

  /** Starts the workflow and returns once it waits for an agent; the host's own stream refuses a second provisioning started in between. */
  async execute({ input }: ProvisionHostCommand): Promise<ProvisionStarted> {
    const provisionId = uuidV7();
    const data = await planProvisioning(this.store, input, provisionId, this.programming.allowUnsigned);
    const status = await this.workflows.begin(PROVISION_WORKFLOW, provisionId, { requestId: provisionId, data, subject: hostStream(data.hostname) }, NEVER_ABORTED);
    return { workflow: PROVISION_WORKFLOW, workflowId: provisionId, status, position: await this.store.headPosition() };
  }
}
