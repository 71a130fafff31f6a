import { Module } from '@nestjs/common';
import { AggregateCache, EVENT_STORE, type EventStore, StreamLocks } from '@ledger/eventstore';
import type { QuotaState } from '../domain/quota.state';
import { QuotaCommandRunner } from './quota-command.runner';
import { QuotaReader } from './quota.reader';
import { QUOTA_CACHE, QUOTA_STREAM_LOCKS } from './quota.tokens';
import { ReleaseQuotaHandler } from './release-quota/release-quota.handler';
import { ReserveQuotaHandler } from './reserve-quota/reserve-quota.handler';
import { SetQuotaLimitsHandler } from './set-quota-limits/set-quota-limits.handler';

/**
 * The quota command side and QuotaReader. Expects `CqrsModule.forRoot()`
 * and a global `EVENT_STORE`.
 */
@Module({
  providers: [
    // One entry per project with recent activity; states are immutable, so sharing them is safe.
    { provide: QUOTA_CACHE, useFactory: () => new AggregateCache<QuotaState>(10_000) },
    // One instance for every handler: commands on one project queue here instead of racing to the store.
    { provide: QUOTA_STREAM_LOCKS, useFactory: () => new StreamLocks() },
    QuotaCommandRunner,
    SetQuotaLimitsHandler,
    ReserveQuotaHandler,
    ReleaseQuotaHandler,
    { provide: QuotaReader, useFactory: (store: EventStore, cache: AggregateCache<QuotaState>) => new QuotaReader(store, cache), inject: [EVENT_STORE, QUOTA_CACHE] },
  ],
  // The bind decides over a project's quota with the same cache and locks as the quota commands.
  exports: [QuotaReader, QUOTA_CACHE, QUOTA_STREAM_LOCKS],
})
export class QuotaModule {}
