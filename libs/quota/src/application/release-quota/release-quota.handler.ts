import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { QuotaCommandRunner } from '../quota-command.runner';
import type { QuotaCommandResult } from '../quota-command.result';
import { ReleaseQuotaCommand } from './release-quota.command';

@CommandHandler(ReleaseQuotaCommand)
export class ReleaseQuotaHandler implements ICommandHandler<ReleaseQuotaCommand> {
  constructor(@Inject(QuotaCommandRunner) private readonly runner: QuotaCommandRunner) {}

  execute({ input, context }: ReleaseQuotaCommand): Promise<QuotaCommandResult> {
    return this.runner.run({ type: 'ReleaseQuota', project: input.project, consumerIds: input.consumerIds }, context);
  }
}
