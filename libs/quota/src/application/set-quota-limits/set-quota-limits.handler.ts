import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { QuotaCommandRunner } from '../quota-command.runner';
import type { QuotaCommandResult } from '../quota-command.result';
import { SetQuotaLimitsCommand } from './set-quota-limits.command';

@CommandHandler(SetQuotaLimitsCommand)
export class SetQuotaLimitsHandler implements ICommandHandler<SetQuotaLimitsCommand> {
  constructor(@Inject(QuotaCommandRunner) private readonly runner: QuotaCommandRunner) {}

  execute({ input, context }: SetQuotaLimitsCommand): Promise<QuotaCommandResult> {
    return this.runner.run({ type: 'SetQuotaLimits', project: input.project, limits: input.limits }, context);
  }
}
