import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type QuotaCommandResult, toQuotaCommandResult } from '../quota-command.result';
import type { QuotaCommands } from '../quota-commands';
import { QUOTA_COMMANDS } from '../quota.tokens';
import { SetQuotaLimitsCommand } from './set-quota-limits.command';

@CommandHandler(SetQuotaLimitsCommand)
export class SetQuotaLimitsHandler implements ICommandHandler<SetQuotaLimitsCommand> {
  constructor(@Inject(QUOTA_COMMANDS) private readonly quota: QuotaCommands) {}

  async execute({ input, context }: SetQuotaLimitsCommand): Promise<QuotaCommandResult> {
    return toQuotaCommandResult(await this.quota.run({ type: 'SetQuotaLimits', project: input.project, limits: input.limits }, context));
  }
}
