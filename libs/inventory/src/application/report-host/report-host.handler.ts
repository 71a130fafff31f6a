import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, type CommandContext, EVENT_STORE, handleCommand, type CommandResult, type EventStore, STREAM_FRESHNESS, type StreamFreshness } from '@ledger/eventstore';
import { fingerprintOfReport, hostInventoryDecider } from '../../domain/host-inventory.decider';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import type { HostReport } from '../../domain/host-report';
import { hostnameProblem } from '../../domain/hostname';
import { ReportInvalidError } from '../../domain/inventory.errors';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { hostStream } from '../../domain/streams';
import type { DeviceCommands } from '../device-commands';
import { fenceHostDevices } from '../fence-host/fence-host-devices';
import type { HostFenceCommands } from '../fence-host/fence-host.handlers';
import { toInventoryCommandResult, type InventoryCommandResult } from '../inventory-command.result';
import { DEVICE_COMMANDS, HOST_FENCE_COMMANDS, HOST_INVENTORY_CACHE, UNCHANGED_REPORT_MEMO } from '../inventory.tokens';
import { ReportHostCommand } from './report-host.command';
import type { UnchangedReportMemo } from './unchanged-report.memo';

@CommandHandler(ReportHostCommand)
export class ReportHostHandler implements ICommandHandler<ReportHostCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly cache: AggregateCache<HostInventoryState>,
    @Inject(UNCHANGED_REPORT_MEMO) private readonly memo: UnchangedReportMemo,
    @Inject(HOST_FENCE_COMMANDS) private readonly hostFences: HostFenceCommands,
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
    @Optional() @Inject(STREAM_FRESHNESS) private readonly freshness?: StreamFreshness,
  ) {}

  async execute({ report, context, receivedAt, bodyDigest }: ReportHostCommand): Promise<InventoryCommandResult> {
    // The stream name comes from the hostname, so it is checked before anything is read.
    const problem = hostnameProblem(report?.hostname);
    if (problem) throw new ReportInvalidError('hostname', problem, report?.hostname);
    const result = await handleCommand(
      this.store,
      hostStream(report.hostname),
      hostInventoryDecider,
      { type: 'ReportHost', report, receivedAt: receivedAt ?? new Date().toISOString() },
      context,
      { cache: this.cache, freshness: this.freshness, schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS },
    );
    this.rememberIfUnchangedNow(report, result, bodyDigest);
    if (result.events.some((event) => event.type === 'inventory.DeviceDiscovered')) await this.fenceIfHostFenced(report.hostname, context);
    return toInventoryCommandResult(result);
  }

  /**
   * A device a fenced host reports for the first time is fenced as it
   * arrives, like its siblings were: its own stream then refuses claims and
   * records why, beside Placement's reservation and the bind's pre-check.
   */
  private async fenceIfHostFenced(hostname: string, context: CommandContext): Promise<void> {
    const { state } = await this.hostFences.load(hostStream(hostname));
    await fenceHostDevices((command, ctx) => this.devices.run(command, ctx), state, context);
  }

  /**
   * Remembers the body when the decider would now find it unchanged: it did
   * (nothing appended, decided on the stream's tail), or the report's
   * changes are appended and the host's fingerprint is now the report's.
   * See ConfirmUnchangedReportHandler.
   */
  private rememberIfUnchangedNow(report: HostReport, result: CommandResult<HostInventoryState>, bodyDigest: string | undefined): void {
    if (result.appended > 0) this.memo.forget(report.hostname);
    if (bodyDigest === undefined) return;
    if (result.appended === 0 || result.state.fingerprint === fingerprintOfReport(report)) this.memo.remember(report.hostname, bodyDigest, result.state.fingerprint);
  }
}
