import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal, HostScoped } from '@ledger/auth/nest';
import { RecordHeartbeatCommand } from '@ledger/inventory';
import { commandContext } from '../http/command-context';
import { HeartbeatResponse } from './agents.responses';
import { HeartbeatRequest } from './heartbeat.request.dto';
import { JobsWaitingLookup } from './jobs-waiting.lookup';
import { TelemetryLiveView } from './telemetry-live-view';

@ApiTags('agents')
@Controller('api/v1/hosts')
export class HeartbeatController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(TelemetryLiveView) private readonly liveView: TelemetryLiveView,
    @Inject(JobsWaitingLookup) private readonly jobs: JobsWaitingLookup,
  ) {}

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
    const receivedAtMs = Date.now();
    const health = body.devices.map(({ pciAddress, health: level, healthReason, cause }) => ({ pciAddress, health: level, healthReason: healthReason ?? null, cause: cause ?? null }));
    const result = await this.commands.execute(
      new RecordHeartbeatCommand({ hostname, devices: health }, commandContext(principal, request), new Date(receivedAtMs).toISOString()),
    );
    const reported = new Map(body.devices.map((device) => [device.pciAddress.toLowerCase(), device]));
    const samples = result.devices.map(({ pciAddress, deviceUuid }) => {
      const device = reported.get(pciAddress)!;
      return { deviceUuid, pciAddress, health: device.health, healthReason: device.healthReason ?? null, telemetry: device.telemetry ?? {} };
    });
    this.liveView.recordHeartbeat(hostname, receivedAtMs, body, samples);
    return {
      hostname,
      appended: result.appended,
      position: result.position ?? null,
      jobsWaiting: await this.jobs.waiting(hostname),
      unknownDevices: [...result.unknownDevices],
    };
  }
}
