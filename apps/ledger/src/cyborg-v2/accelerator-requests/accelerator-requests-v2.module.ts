import { Module } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { ArqQueries } from '@ledger/projections/arqs';
import { ConsistencyService } from '../../http/consistency.service';
import { READ_MODEL_DB } from '../../infrastructure/tokens';
import { AcceleratorRequestsV2Controller } from './accelerator-requests-v2.controller';

/** Accelerator requests under /v2 (CYBORG-V2.md §1.3, §1.5). */
@Module({
  controllers: [AcceleratorRequestsV2Controller],
  providers: [{ provide: ArqQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new ArqQueries(db) }, ConsistencyService],
})
export class AcceleratorRequestsV2Module {}
