import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { HeartbeatInvalidError } from '../../domain/heartbeat.errors';
import { type HeartbeatDevice, normalizeHeartbeat } from '../../domain/host-heartbeat';
import type { HealthPolicy } from '../../domain/health-policy';
import { DEFAULT_HEALTH_POLICY } from '../../domain/health-policy.default';
import { normalizeHealthCause } from '../../domain/health-cause';
import { hostnameProblem } from '../../domain/hostname';
import type { HostLivenessCommands } from '../agent-liveness/host-liveness-commands';
import type { DeviceCommands } from '../device-commands';
import { DEVICE_COMMANDS, HEALTH_POLICY, HOST_LIVENESS_COMMANDS } from '../inventory.tokens';
import { DeviceHealthMemo } from './device-health.memo';
import { type HeartbeatResult, RecordHeartbeatCommand } from './record-heartbeat.command';

/**
 * Records what a heartbeat changes, and nothing else: AgentBack when the
 * host was lost, and what the health policy makes of each device's report
 * (health-policy.decide.ts). A host that never reported is refused (404),
 * devices it has not reported are ignored.
 */
@CommandHandler(RecordHeartbeatCommand)
export class RecordHeartbeatHandler implements ICommandHandler<RecordHeartbeatCommand> {
  private readonly recorded = new DeviceHealthMemo();

  constructor(
    @Inject(HOST_LIVENESS_COMMANDS) private readonly liveness: HostLivenessCommands,
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
    @Optional() @Inject(HEALTH_POLICY) private readonly policy: HealthPolicy = DEFAULT_HEALTH_POLICY,
  ) {}

  async execute({ heartbeat, context, receivedAt }: RecordHeartbeatCommand): Promise<HeartbeatResult> {
    const problem = hostnameProblem(heartbeat?.hostname);
    if (problem) throw new HeartbeatInvalidError('hostname', problem);
    const { hostname, devices } = normalizeHeartbeat(heartbeat);
    const at = receivedAt ?? new Date().toISOString();
    const seen = await this.liveness.run({ type: 'RecordAgentSeen', hostname, seenAt: at }, context);
    const known: (HeartbeatDevice & { deviceUuid: string })[] = [];
    const unknownDevices: string[] = [];
    for (const device of devices) {
      const deviceUuid = seen.state.devices.get(device.pciAddress);
      if (deviceUuid === undefined) unknownDevices.push(device.pciAddress);
      else known.push({ ...device, deviceUuid });
    }
    const changes = await Promise.all(known.map((device) => this.recordHealth(device, at, context)));
    const appended = [seen, ...changes].filter((result) => result !== undefined && result.appended > 0);
    return {
      appended: appended.reduce((sum, result) => sum + result!.appended, 0),
      position: appended.length === 0 ? undefined : Math.max(...appended.map((result) => result!.position!)),
      devices: known.map(({ pciAddress, deviceUuid }) => ({ pciAddress, deviceUuid })),
      unknownDevices,
    };
  }

  private async recordHealth(device: HeartbeatDevice & { deviceUuid: string }, observedAt: string, context: CommandContext) {
    const nowMs = Date.now();
    // Only a healthy report of a healthy device is skipped: an unhealthy one may tighten the judgment, or break a recovery under way.
    if (device.health === 'ok' && this.recorded.isRecorded(device.deviceUuid, 'ok', nowMs)) return undefined;
    const { deviceUuid, health, healthReason: reason, cause } = device;
    const result = await this.devices.run({ type: 'RecordDeviceHealth', deviceUuid, health, reason, cause: cause == null ? null : normalizeHealthCause(cause), observedAt, policy: this.policy ?? DEFAULT_HEALTH_POLICY }, context);
    this.recorded.remember(device.deviceUuid, result.state.health?.health ?? 'ok', nowMs);
    return result;
  }
}
