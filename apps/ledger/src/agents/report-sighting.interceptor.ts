import { type CallHandler, type ExecutionContext, Inject, Injectable, Logger, type NestInterceptor } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { concatMap, type Observable } from 'rxjs';
import type { Principal } from '@ledger/auth';
import { RecordAgentSeenCommand } from '@ledger/inventory';
import { commandContext } from '../http/command-context';
import { TelemetryLiveView } from './telemetry-live-view';

/**
 * A report proves the agent alive as much as a heartbeat does: after every
 * accepted report, the host counts as seen (live view) and, if it was lost,
 * is recorded back before the report is answered. Put around the report
 * route (`@UseInterceptors` there, outermost, so that the unchanged report's
 * short cut counts too) rather than inside it so that inventory reports stay
 * unaware of liveness; a failure here is logged and never fails the report.
 * On that route only: an app-wide interceptor would put every request of
 * every route through Nest's interceptor chain.
 */
@Injectable()
export class ReportSightingInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Heartbeats');

  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(TelemetryLiveView) private readonly liveView: TelemetryLiveView,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { principal: Principal }>();
    const { hostname } = request.params as { hostname: string };
    return next.handle().pipe(
      concatMap(async (response) => {
        await this.recordSighting(hostname, request);
        return response;
      }),
    );
  }

  private async recordSighting(hostname: string, request: FastifyRequest & { principal: Principal }): Promise<void> {
    const seenAtMs = Date.now();
    this.liveView.recordSighting(hostname, seenAtMs);
    try {
      await this.commands.execute(new RecordAgentSeenCommand(hostname, commandContext(request.principal, request), new Date(seenAtMs).toISOString()));
    } catch (error) {
      this.logger.error(`could not record ${hostname} back after its report: ${(error as Error)?.message ?? String(error)}`);
    }
  }
}
