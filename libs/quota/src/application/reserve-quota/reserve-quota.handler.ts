import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type QuotaCommandResult, toQuotaCommandResult } from '../quota-command.result';
import type { QuotaCommands } from '../quota-commands';
import { QUOTA_COMMANDS } from '../quota.tokens';
import { ReserveQuotaCommand } from './reserve-quota.command';

@CommandHandler(ReserveQuotaCommand)
export class ReserveQuotaHandler implements ICommandHandler<ReserveQuotaCommand> {
  constructor(@Inject(QUOTA_COMMANDS) private readonly quota: QuotaCommands) {}

  async execute({ input, context }: ReserveQuotaCommand): Promise<QuotaCommandResult> {
    return toQuotaCommandResult(await this.quota.run({ type: 'ReserveQuota', project: input.project, consumers: input.consumers }, context));
  }
}
