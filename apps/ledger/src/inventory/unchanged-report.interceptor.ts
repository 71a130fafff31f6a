import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, Optional } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { from, type Observable, switchMap } from 'rxjs';
import { ConfirmUnchangedReportCommand } from '@ledger/inventory';
import { requestBodyDigest } from '../http/request-body-digest';
import { LEDGER_METRICS } from '../infrastructure/tokens';
import type { LedgerMetrics } from '../metrics/ledger-metrics';
import { hostReportResponse } from './host-report.response';

/**
 * The report route's short cut for an unchanged report: an interceptor
 * because it must answer before the validation pipe builds the DTO, and
 * after the guards (the caller may report for this host). A body
 * byte-identical to the last one found unchanged, against a host that has
 * not changed since, gets the full path's answer at once; anything else
 * goes the full path (docs/agent-protocol.md, "Unchanged reports").
 */
@Injectable()
export class UnchangedReportInterceptor implements NestInterceptor {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Optional() @Inject(LEDGER_METRICS) private readonly metrics?: LedgerMetrics,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { hostname } = request.params as { hostname: string };
    const bodyDigest = requestBodyDigest(request);
    if (bodyDigest === undefined) return this.fullPath(next);
    return from(this.commands.execute(new ConfirmUnchangedReportCommand(hostname, bodyDigest))).pipe(
      switchMap((unchanged) => {
        if (unchanged === undefined) return this.fullPath(next);
        this.metrics?.reportAnswered('shortcut');
        return [hostReportResponse(hostname, unchanged)];
      }),
    );
  }

  private fullPath(next: CallHandler): Observable<unknown> {
    this.metrics?.reportAnswered('full');
    return next.handle();
  }
}
