import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ledger/auth';
import { dataFiles, type LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore, loadOrCreateCheckpointKeys } from '@ledger/eventstore';
import { parseLogPoint, type SqlDatabase } from '@ledger/processing';
import {
  assertUsagePeriodOver,
  computeUsageReport,
  type HealthTenancy,
  parseUsageGroupBy,
  resolveUsageWindow,
  UsageQueries,
  type UsageReport,
} from '@ledger/projections/device-history';
import { ConsistencyService } from '../../http/consistency.service';
import { LEDGER_CONFIG, READ_MODEL_DB } from '../../infrastructure/tokens';
import { projectScopeOf } from '../device-history-scope';

export interface UsageAsk {
  readonly from: string;
  readonly to: string;
  readonly groupBy?: string | null;
}

export interface HealthHoldersAsk {
  readonly from?: string | null;
  readonly to?: string | null;
  readonly cause?: string | null;
  readonly causeKind?: string | null;
  readonly device?: string | null;
}

/**
 * Usage reports and health beside tenancy for REST and GraphQL alike
 * (docs/audit.md, "Usage"): the window is resolved on the live store, the
 * read model awaited up to its end, and the report signed with the data
 * dir's checkpoint key, the one `ledgerctl audit usage --file` verifies.
 */
@Injectable()
export class UsageReports {
  private signingKey: KeyObject | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODEL_DB) private readonly db: SqlDatabase,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  async report(ask: UsageAsk, principal: Principal): Promise<UsageReport> {
    const groupBy = parseUsageGroupBy(ask.groupBy);
    const window = await resolveUsageWindow(this.store, parseLogPoint(ask.from, 'from'), parseLogPoint(ask.to, 'to'));
    assertUsagePeriodOver(window, new Date());
    await this.consistency.awaitPosition(window.to.position);
    return computeUsageReport(this.db, window, groupBy, projectScopeOf(principal), this.key());
  }

  async healthHolders(ask: HealthHoldersAsk, principal: Principal): Promise<HealthTenancy[]> {
    // A report is an instant: a time is compared with the report's own, no resolving to a position needed.
    const question = {
      from: ask.from == null ? undefined : parseLogPoint(ask.from, 'from'),
      to: ask.to == null ? undefined : parseLogPoint(ask.to, 'to'),
      cause: ask.cause ?? undefined,
      causeKind: ask.causeKind ?? undefined,
      device: ask.device ?? undefined,
    };
    await this.consistency.awaitFresh();
    return new UsageQueries(this.db).healthTenancies(question, projectScopeOf(principal));
  }

  private key(): KeyObject {
    this.signingKey ??= loadOrCreateCheckpointKeys(dataFiles(this.config).checkpointKey).privateKey;
    return this.signingKey;
  }
}
