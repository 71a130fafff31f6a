import { Controller, Get, Inject, Optional, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth/nest';
import type { LedgerConfig } from '@ledger/config';
import { type PlacementFleetSync, type PlacementReconciler, type PlacementReconcilerStatus, PlacementSyncQueries } from '@ledger/placement';
import { PLACEMENT_RECONCILER } from '@ledger/placement/nest';
import { DEFAULT_PAGE_LIMIT } from '@ledger/projections/inventory';
import { LEDGER_CONFIG } from '../infrastructure/tokens';
import { PageQuery } from '../inventory/inventory.query.dto';
import { PlacementFleetResponse } from './placement.responses';

export type PlacementReconcilerView = { readonly enabled: boolean } & Partial<PlacementReconcilerStatus>;

/** The fleet's sync with Placement: hosts per state and the ones not in sync, for operators (`ledgerctl placement status`). */
@ApiTags('placement')
@Controller('api/v1/placement')
export class PlacementFleetController {
  constructor(
    @Inject(PlacementSyncQueries) private readonly sync: PlacementSyncQueries,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Optional() @Inject(PLACEMENT_RECONCILER) private readonly reconciler?: PlacementReconciler | null,
  ) {}

  @Get()
  @Allow('admin', 'manager')
  @ApiOperation({
    summary: 'Hosts per sync state with Placement, and a page of the hosts not in sync (by name)',
    description: "`reconciler` is this process's view: whether it is on, and, where the processors role runs, its lease, last compare and since when Placement has not answered.",
  })
  @ApiOkResponse({ type: PlacementFleetResponse })
  async fleet(@Query() query: PageQuery): Promise<{ reconciler: PlacementReconcilerView } & PlacementFleetSync> {
    const fleet = await this.sync.fleet({ limit: query.limit ?? DEFAULT_PAGE_LIMIT, cursor: query.cursor });
    return { reconciler: { enabled: this.config.placement.endpoint !== undefined, ...this.reconciler?.status() }, ...fleet };
  }
}
