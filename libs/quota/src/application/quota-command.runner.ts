import { Inject, Injectable } from '@nestjs/common';
import { AggregateCache, type CommandContext, EVENT_STORE, type EventStore, handleCommand, StreamLocks } from '@ledger/eventstore';
import { quotaStream } from '../domain/quota-project';
import type { QuotaCommand } from '../domain/quota.commands';
import { quotaDecider } from '../domain/quota.decider';
import { QUOTA_EVENT_SCHEMA_VERSIONS } from '../domain/quota.events';
import type { QuotaState } from '../domain/quota.state';
import type { QuotaCommandResult } from './quota-command.result';
import { QUOTA_CACHE, QUOTA_STREAM_LOCKS } from './quota.tokens';

/**
 * Commands queue per project within a process, so a conflict means another
 * replica appended in between. Losing this many races in a row takes a
 * project hammered from many replicas; the command then fails with the
 * store's 409 (EVENTSTORE.WRONG_EXPECTED_VERSION) and the caller may retry.
 */
const MAX_ATTEMPTS = 20;

/**
 * The path all quota commands share: queue behind other commands on the
 * project in this process, then load → decide → append with the expected
 * version, retrying when another replica appended first.
 */
@Injectable()
export class QuotaCommandRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(QUOTA_CACHE) private readonly cache: AggregateCache<QuotaState>,
    @Inject(QUOTA_STREAM_LOCKS) private readonly locks: StreamLocks,
  ) {}

  async run(command: QuotaCommand, context: CommandContext): Promise<QuotaCommandResult> {
    const result = await handleCommand(this.store, quotaStream(command.project), quotaDecider, command, context, {
      cache: this.cache,
      locks: this.locks,
      schemaVersions: QUOTA_EVENT_SCHEMA_VERSIONS,
      maxAttempts: MAX_ATTEMPTS,
    });
    return { appended: result.appended, position: result.position ?? null };
  }
}
