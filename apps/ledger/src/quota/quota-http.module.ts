import { Module } from '@nestjs/common';
import { QuotaModule } from '@ledger/quota/nest';
import { QuotasController } from './quotas.controller';

/** The native quota API under /api/v1. QuotaModule is imported for QuotaReader (the app imports it too; Nest keeps one instance). */
@Module({
  imports: [QuotaModule],
  controllers: [QuotasController],
})
export class QuotaHttpModule {}
