import type { Decider } from '@ledger/kernel';
import type { QuotaCommand } from './quota.commands';
import { QuotaInvalidError } from './quota.errors';
import type { QuotaEvent } from './quota.events';
import { evolveQuota, initialQuotaState, type QuotaState } from './quota.state';
import { decideReleaseQuota } from './release-quota';
import { decideReserveQuota } from './reserve-quota';
import { decideSetQuotaLimits } from './set-quota-limits';

/** One project's quota (stream `quota-<project>`): limits, reservations and their totals. */
export const quotaDecider: Decider<QuotaCommand, QuotaState, QuotaEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'SetQuotaLimits':
        return decideSetQuotaLimits(command, state);
      case 'ReserveQuota':
        return decideReserveQuota(command, state);
      case 'ReleaseQuota':
        return decideReleaseQuota(command, state);
      default:
        throw new QuotaInvalidError('type', 'is not a quota command', (command as { type?: unknown }).type);
    }
  },
  evolve: evolveQuota,
  initialState: initialQuotaState,
};
