import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Principal } from '@ledger/auth';
import { RecordAgentSeenCommand } from '@ledger/inventory';
import { commandContext } from '../http/command-context';
import type { RequestIdentity } from '../http/request-ids';
import { TelemetryLiveView } from './telemetry-live-view';

/**
 * An accepted report proves the agent alive as much as a heartbeat does:
 * the host counts as seen (live view) and, if it was lost, is recorded back.
 * A failure here is logged and never fails the report. Called by the
 * report's lean route for the unchanged-report short cut and by
 * ReportSightingInterceptor around the full path.
 */
@Injectable()
export class AgentSightings {
  private readonly logger = new Logger('Heartbeats');

  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(TelemetryLiveView) private readonly liveView: TelemetryLiveView,
  ) {}

  async record(hostname: string, principal: Principal, request: RequestIdentity): Promise<void> {
    const seenAtMs = Date.now();
    this.liveView.recordSighting(hostname, seenAtMs);
    try {
      await this.commands.execute(new RecordAgentSeenCommand(hostname, commandContext(principal, request), new Date(seenAtMs).toISOString()));
    } catch (error) {
      this.logger.error(`could not record ${hostname} back after its report: ${(error as Error)?.message ?? String(error)}`);
    }
  }
}
