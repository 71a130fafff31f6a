import { Module } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { QuotaQueries } from '@ledger/projections/quota';
import { QuotaModule } from '@ledger/quota/nest';
import { READ_MODEL_DB } from '../infrastructure/tokens';
import { QuotasController } from './quotas.controller';

/** The native quota API under /api/v1. QuotaModule is imported for QuotaReader (the app imports it too; Nest keeps one instance). */
@Module({
  imports: [QuotaModule],
  controllers: [QuotasController],
  providers: [{ provide: QuotaQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new QuotaQueries(db) }],
})
export class QuotaHttpModule {}
