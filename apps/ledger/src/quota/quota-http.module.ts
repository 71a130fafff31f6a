import { Module } from '@nestjs/common';

/** The native quota API under /api/v1. */
@Module({})
export class QuotaHttpModule {}
