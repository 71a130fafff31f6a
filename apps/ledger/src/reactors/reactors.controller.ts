import { Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Allow } from '@ledger/auth/nest';
import { ValidationError } from '@ledger/kernel';
import type { ParkedEvent, ParkedRetryOutcome, ReactorRuntime, ReactorStatus } from '@ledger/processing';
import { REACTOR_RUNTIME } from '../infrastructure/tokens';

/**
 * The operator's view of the reactors (Nova notifier, Placement reconciler…):
 * where each stands, what it parked, and a retry of a parked event. Served
 * by processes that run the `processors` role.
 */
@ApiTags('reactors')
@Controller('api/v1/reactors')
export class ReactorsController {
  constructor(@Inject(REACTOR_RUNTIME) private readonly reactors: ReactorRuntime) {}

  @Get()
  @Allow('admin', 'manager')
  @ApiOperation({ summary: 'Every reactor: state, position, lag, parked count, last error, unavailable since, the call outstanding when stalled' })
  async list(): Promise<{ items: ReactorStatus[] }> {
    return { items: await this.reactors.status() };
  }

  @Get(':name/parked')
  @Allow('admin', 'manager')
  @ApiOperation({ summary: "A reactor's parked events, oldest first" })
  async parked(@Param('name') name: string): Promise<{ reactor: string; items: ParkedEvent[] }> {
    return { reactor: name, items: await this.reactors.parked(name) };
  }

  @Post(':name/parked/:position/retry')
  @Allow('admin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Retry a parked event once: 200 with the outcome, or 202 when another instance runs the reactor and will retry it' })
  async retry(
    @Param('name') name: string,
    @Param('position') position: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ reactor: string; position: number } & ParkedRetryOutcome> {
    const at = parsePosition(position);
    const outcome = await this.reactors.retryParked(name, at);
    if (outcome.outcome === 'requested') void reply.status(202);
    return { reactor: name, position: at, ...outcome };
  }
}

function parsePosition(text: string): number {
  const position = Number(text);
  if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(position)) {
    throw new ValidationError('REACTOR.INVALID', `position must be a positive integer, not ${JSON.stringify(text)}`, { path: 'position' });
  }
  return position;
}
