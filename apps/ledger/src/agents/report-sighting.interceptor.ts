import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { concatMap, type Observable } from 'rxjs';
import type { Principal } from '@ledger/auth';
import { AgentSightings } from './agent-sightings';

/**
 * After every report the full path accepted, the host counts as seen
 * (AgentSightings) before the report is answered. Put around the report
 * route rather than inside it so that inventory reports stay unaware of
 * liveness. On that route only: an app-wide interceptor would put every
 * request of every route through Nest's interceptor chain. (The unchanged
 * report's short cut, in the lean route, records its sighting itself.)
 */
@Injectable()
export class ReportSightingInterceptor implements NestInterceptor {
  constructor(@Inject(AgentSightings) private readonly sightings: AgentSightings) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { principal: Principal }>();
    const { hostname } = request.params as { hostname: string };
    return next.handle().pipe(
      concatMap(async (response) => {
        await this.sightings.record(hostname, request.principal, request);
        return response;
      }),
    );
  }
}
