import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type QuotaCommandResult, toQuotaCommandResult } from '../quota-command.result';
import type { QuotaCommands } from '../quota-commands';
import { QUOTA_COMMANDS } from '../quota.tokens';
import { ReleaseQuotaCommand } from './release-quota.command';

@CommandHandler(ReleaseQuotaCommand)
export class ReleaseQuotaHandler implements ICommandHandler<ReleaseQuotaCommand> {
  constructor(@Inject(QUOTA_COMMANDS) private readonly quota: QuotaCommands) {}

  async execute({ input, context }: ReleaseQuotaCommand): Promise<QuotaCommandResult> {
    return toQuotaCommandResult(await this.quota.run({ type: 'ReleaseQuota', project: input.project, consumerIds: input.consumerIds }, context));
  }
}
