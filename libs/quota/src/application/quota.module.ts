import { Module } from '@nestjs/common';
import { AggregateCache, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import type { QuotaState } from '../domain/quota.state';
import { quotaCommandsProvider } from './quota-commands';
import { QuotaReader } from './quota.reader';
import { QUOTA_CACHE } from './quota.tokens';
import { ReleaseQuotaHandler } from './release-quota/release-quota.handler';
import { ReserveQuotaHandler } from './reserve-quota/reserve-quota.handler';
import { SetQuotaLimitsHandler } from './set-quota-limits/set-quota-limits.handler';

/**
 * The quota command side and QuotaReader. Expects `CqrsModule.forRoot()`
 * and a global `EVENT_STORE` and `STREAM_LOCKS`.
 */
@Module({
  providers: [
    // One entry per project with recent activity; states are immutable, so sharing them is safe.
    { provide: QUOTA_CACHE, useFactory: () => new AggregateCache<QuotaState>(10_000) },
    quotaCommandsProvider,
    SetQuotaLimitsHandler,
    ReserveQuotaHandler,
    ReleaseQuotaHandler,
    { provide: QuotaReader, useFactory: (store: EventStore, cache: AggregateCache<QuotaState>) => new QuotaReader(store, cache), inject: [EVENT_STORE, QUOTA_CACHE] },
  ],
  // The bind and the create of requests decide over a project's quota with the same cache as the quota commands.
  exports: [QuotaReader, QUOTA_CACHE],
})
export class QuotaModule {}
