import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal, HostScoped } from '@ledger/auth/nest';
import { HeartbeatResponse } from './agents.responses';
import { HeartbeatRequest } from './heartbeat.request.dto';
import { HeartbeatRecorder } from './heartbeat-recorder';

/**
 * The heartbeat route as Nest declares it (access, OpenAPI, the route table). Requests are served by the lean
 * route installed over it (lean-agent-routes.ts); this handler serves them where that is not installed.
 */
@ApiTags('agents')
@Controller('api/v1/hosts')
export class HeartbeatController {
  constructor(@Inject(HeartbeatRecorder) private readonly heartbeats: HeartbeatRecorder) {}

  @Post(':hostname/heartbeat')
  @HttpCode(200)
  @Allow('agent', 'admin')
  @HostScoped('hostname')
  @ApiOperation({
    summary: "An agent's heartbeat: alive, its devices' health and telemetry",
    description:
      'Telemetry goes to the live view (GET …/telemetry), never into the log. Appends only changes: AgentBack when the host was lost, ' +
      "what the health policy makes of each device's report and cause (DeviceHealthChanged, DeviceHealthCheckPassed, DeviceDrainRequested). A host that never reported gets 404 (report first); devices it has not reported are ignored.",
  })
  @ApiOkResponse({ type: HeartbeatResponse })
  async heartbeat(
    @Param('hostname') hostname: string,
    @Body() body: HeartbeatRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<HeartbeatResponse> {
    return this.heartbeats.record(hostname, body, principal, request);
  }
}
