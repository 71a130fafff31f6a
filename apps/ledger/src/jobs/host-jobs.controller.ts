import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal, HostScoped } from '@ledger/auth/nest';
import { type JobOffer, RequestJobCommand, type RequestedJob } from '@ledger/jobs';
import { commandContext } from '../http/command-context';
import { AGENT_BOOT_HEADER, agentBootOf } from './agent-boot';
import { NextJobsQuery, RequestJobBody } from './jobs.request.dto';
import { NextJobsLongPoll } from './next-jobs.long-poll';

const DEFAULT_WAIT_SECONDS = 25;

@ApiTags('jobs')
@Controller('api/v1/hosts')
export class HostJobsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(NextJobsLongPoll) private readonly longPoll: NextJobsLongPoll,
  ) {}

  @Post(':hostname/jobs')
  @HttpCode(202)
  @Allow('admin')
  @ApiOperation({
    summary: "Ask a host's agent to do something",
    description: 'Records jobs.JobRequested; the agent takes it with its next long poll. 404 for a host that never reported.',
  })
  async request(
    @Param('hostname') hostname: string,
    @Body() body: RequestJobBody,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RequestedJob> {
    const { kind, params, timeoutSeconds } = body;
    const requested = await this.commands.execute(new RequestJobCommand({ hostname, kind, params, timeoutSeconds }, commandContext(principal, request)));
    reply.header('Location', `/api/v1/jobs/${requested.jobId}`);
    return requested;
  }

  @Get(':hostname/jobs/next')
  @Allow('agent', 'admin')
  @HostScoped('hostname')
  @ApiHeader({ name: AGENT_BOOT_HEADER, required: false, description: "a uuid drawn at the agent's start: a new one gets unfinished dispatched jobs again" })
  @ApiOperation({
    summary: "The agent's long poll for jobs",
    description: 'Answers at once with the oldest waiting jobs (each recorded as jobs.JobDispatched), else waits up to waitSeconds for one.',
  })
  async next(
    @Param('hostname') hostname: string,
    @Query() query: NextJobsQuery,
    @Headers(AGENT_BOOT_HEADER) bootHeader: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ jobs: JobOffer[] }> {
    const agentBoot = agentBootOf(bootHeader);
    const hangUp = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableEnded) hangUp.abort();
    };
    reply.raw.on('close', onClose);
    try {
      const jobs = await this.longPoll.next({
        hostname,
        agentBoot,
        waitSeconds: query.waitSeconds ?? DEFAULT_WAIT_SECONDS,
        context: commandContext(principal, request),
        signal: hangUp.signal,
      });
      return { jobs };
    } finally {
      reply.raw.off('close', onClose);
    }
  }
}
