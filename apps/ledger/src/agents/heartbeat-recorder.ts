import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Principal } from '@ledger/auth';
import { RecordHeartbeatCommand } from '@ledger/inventory';
import { commandContext } from '../http/command-context';
import type { RequestIdentity } from '../http/request-ids';
import type { HeartbeatResponse } from './agents.responses';
import type { HeartbeatRequest } from './heartbeat.request.dto';
import { JobsWaitingLookup } from './jobs-waiting.lookup';
import { TelemetryLiveView } from './telemetry-live-view';

/**
 * What a validated heartbeat does: health changes through the command,
 * telemetry into the live view, the answer with the jobs waiting. One
 * implementation for the lean route (lean-agent-routes.ts) and the Nest
 * controller that documents the route.
 */
@Injectable()
export class HeartbeatRecorder {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(TelemetryLiveView) private readonly liveView: TelemetryLiveView,
    @Inject(JobsWaitingLookup) private readonly jobs: JobsWaitingLookup,
  ) {}

  async record(hostname: string, body: HeartbeatRequest, principal: Principal, request: RequestIdentity): Promise<HeartbeatResponse> {
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
