import { Module } from '@nestjs/common';

/** The quota command side. Expects `CqrsModule.forRoot()` and a global `EVENT_STORE`. */
@Module({})
export class QuotaModule {}
