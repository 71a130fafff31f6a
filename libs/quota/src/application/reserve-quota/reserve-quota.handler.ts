import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { QuotaCommandRunner } from '../quota-command.runner';
import type { QuotaCommandResult } from '../quota-command.result';
import { ReserveQuotaCommand } from './reserve-quota.command';

@CommandHandler(ReserveQuotaCommand)
export class ReserveQuotaHandler implements ICommandHandler<ReserveQuotaCommand> {
  constructor(@Inject(QuotaCommandRunner) private readonly runner: QuotaCommandRunner) {}

  execute({ input, context }: ReserveQuotaCommand): Promise<QuotaCommandResult> {
    return this.runner.run({ type: 'ReserveQuota', project: input.project, consumers: input.consumers }, context);
  }
}
