import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@ledger/auth/nest';
import { ReadinessService } from '../infrastructure/readiness.service';

const CHECK = {
  type: 'object',
  required: ['ok'],
  properties: { ok: { type: 'boolean' }, detail: { type: 'string' }, code: { type: 'string', description: 'a failed check\'s stable error code, with its facts beside it (docs/errors.md)' } },
};
const READINESS = {
  type: 'object',
  required: ['ready', 'checks'],
  properties: {
    ready: { type: 'boolean' },
    checks: { type: 'object', description: 'eventStore, readModels, placement (the sync with Placement: reported, never unready), with the processors role processors and reactors, and on a conductor whose store is cut below its signed head signedHead', additionalProperties: CHECK },
    headPosition: { type: 'integer', description: "the event log's head position" },
    processors: { type: 'array', description: 'each processor of this instance: name, state, position', items: { type: 'object' } },
  },
};

/** Liveness and readiness for orchestrators: no token needed, no tenant data. */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(@Inject(ReadinessService) private readonly readiness: ReadinessService) {}

  @Public()
  @Get('healthz')
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the process answers (no token)', security: [] })
  @ApiOkResponse({ schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  @ApiOperation({ summary: 'Readiness: the event store and read models answer and no processor has failed (no token)', security: [] })
  @ApiOkResponse({ description: 'Ready', schema: READINESS })
  @ApiServiceUnavailableResponse({ description: 'Not ready: a check failed', schema: READINESS })
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.readiness.check();
    reply.status(report.ready ? 200 : 503);
    return report;
  }
}
