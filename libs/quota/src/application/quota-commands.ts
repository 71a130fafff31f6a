import type { Provider } from '@nestjs/common';
import { type AggregateCache, type DeciderCommandHandler, deciderCommandHandler, EVENT_STORE, type EventStore, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import { quotaStream } from '../domain/quota-project';
import type { QuotaCommand } from '../domain/quota.commands';
import { quotaDecider } from '../domain/quota.decider';
import { QUOTA_EVENT_SCHEMA_VERSIONS, type QuotaEvent } from '../domain/quota.events';
import type { QuotaState } from '../domain/quota.state';
import { QUOTA_CACHE, QUOTA_COMMANDS } from './quota.tokens';

/**
 * Commands queue per project within a process, so a conflict means another
 * replica appended in between. Losing this many races in a row takes a
 * project hammered from many replicas; the command then fails with the
 * store's 409 (EVENTSTORE.WRONG_EXPECTED_VERSION) and the caller may retry.
 */
const MAX_ATTEMPTS = 20;

/** The quota commands' runner: every command on a project's stream goes through it. */
export type QuotaCommands = DeciderCommandHandler<QuotaCommand, QuotaState, QuotaEvent>;

export const quotaCommandsProvider: Provider = {
  provide: QUOTA_COMMANDS,
  inject: [EVENT_STORE, QUOTA_CACHE, STREAM_LOCKS],
  useFactory: (store: EventStore, cache: AggregateCache<QuotaState>, locks: StreamLocks): QuotaCommands =>
    deciderCommandHandler(store, {
      decider: quotaDecider,
      streamOf: (command) => quotaStream(command.project),
      cache,
      locks,
      schemaVersions: QUOTA_EVENT_SCHEMA_VERSIONS,
      maxAttempts: MAX_ATTEMPTS,
    }),
};
