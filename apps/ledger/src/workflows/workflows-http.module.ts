import { Module } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { WorkflowQueries } from '@ledger/workflows';
import { ConsistencyService } from '../http/consistency.service';
import { READ_MODEL_DB } from '../infrastructure/tokens';
import { WorkflowsController } from './workflows.controller';

/** The native workflows API under /api/v1 (needs the processors role's WORKFLOW_RUNTIME in the same process, as the reactors API does). */
@Module({
  controllers: [WorkflowsController],
  providers: [{ provide: WorkflowQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new WorkflowQueries(db) }, ConsistencyService],
})
export class WorkflowsHttpModule {}
