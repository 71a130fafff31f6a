import { Module } from '@nestjs/common';
import { ReactorsController } from './reactors.controller';

/** The native reactors API under /api/v1 (needs the processors role's REACTOR_RUNTIME in the same process). */
@Module({ controllers: [ReactorsController] })
export class ReactorsHttpModule {}
