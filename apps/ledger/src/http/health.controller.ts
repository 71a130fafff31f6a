import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@ledger/auth';
import { ReadinessService } from '../infrastructure/readiness.service';

/** Liveness and readiness for orchestrators: no token needed, no tenant data. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(@Inject(ReadinessService) private readonly readiness: ReadinessService) {}

  @Public()
  @Get('healthz')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.readiness.check();
    reply.status(report.ready ? 200 : 503);
    return report;
  }
}
