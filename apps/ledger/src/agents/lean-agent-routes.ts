import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { AUTH_OPTIONS, type AuthOptions, PolicyEnforcer } from '@ledger/auth';
import { type AuthenticatedRequest, authorizeRequest, type RouteAccess, routeAccessOf } from '@ledger/auth/nest';
import { ConfirmUnchangedReportCommand, type InventoryCommandResult } from '@ledger/inventory';
import { requestBodyDigest } from '../http/request-body-digest';
import { sendError } from '../http/send-error';
import { requestValidationPipe } from '../http/validation.pipe';
import { HostReportController } from '../inventory/host-report.controller';
import { hostReportResponse } from '../inventory/host-report.response';
import type { LedgerMetrics } from '../metrics/ledger-metrics';
import { AgentSightings } from './agent-sightings';
import { HeartbeatController } from './heartbeat.controller';
import { HeartbeatRequest } from './heartbeat.request.dto';
import { HeartbeatRecorder } from './heartbeat-recorder';

const HEARTBEAT_ROUTE = 'POST /api/v1/hosts/:hostname/heartbeat';
const REPORT_ROUTE = 'PUT /api/v1/hosts/:hostname/report';

/** What the lean handlers use of the app, once Nest has built it. */
interface LeanDependencies {
  readonly auth: AuthOptions;
  readonly policy: PolicyEnforcer;
  readonly heartbeatAccess: RouteAccess;
  readonly reportAccess: RouteAccess;
  readonly heartbeats: HeartbeatRecorder;
  readonly sightings: AgentSightings;
  readonly commands: CommandBus;
}

/** Where the lean routes get the app's parts: `attach` once NestFactory built it, before it listens. */
export interface LeanAgentRoutes {
  attach(app: INestApplicationContext): void;
}

/**
 * The agents' two frequent calls — heartbeats and unchanged reports, most
 * of a fleet's traffic — served by Fastify handlers that stand in for
 * Nest's on the same routes, outside Nest's per-request pipeline (its
 * router, guard, interceptors and pipe cost 0.16 ms before a heartbeat's
 * handler ran). Nothing is decided differently: the caller is authorized by
 * the guard's own function with the access the controller's decorators
 * declare, a heartbeat's body is checked by the ledger's validation pipe
 * itself, errors are answered by `sendError` as Nest's filter answers them,
 * and the work is the services the controllers call. Fastify's hooks (read
 * models ready, request ids and logging, metrics, tracing) run as for any
 * route. A report that is not the unchanged one goes on to Nest's own
 * handler (full path, ReportSightingInterceptor). docs/agent-protocol.md,
 * "The lean path".
 *
 * Installed with an `onRoute` hook before Nest registers its routes, so the
 * routes, their OpenAPI and their tenancy classification stay Nest's.
 */
export function serveAgentCallsLean(fastify: FastifyInstance, metrics: LedgerMetrics | undefined): LeanAgentRoutes {
  let dependencies: LeanDependencies | undefined;
  const pipe = requestValidationPipe();
  // What Nest hands its pipe for the controller's @Body() parameter.
  const heartbeatBody = { type: 'body' as const, metatype: HeartbeatRequest, data: undefined };
  const app = (): LeanDependencies => {
    if (dependencies === undefined) throw new Error('lean agent routes used before the app was attached');
    return dependencies;
  };

  async function heartbeat(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const { hostname } = request.params as { hostname: string };
    try {
      const parts = app();
      const principal = await authorizeRequest(request as unknown as AuthenticatedRequest, parts.heartbeatAccess, parts.auth, parts.policy);
      const body = (await pipe.transform(request.body, heartbeatBody)) as HeartbeatRequest;
      return await parts.heartbeats.record(hostname, body, principal, request);
    } catch (error) {
      sendError(error, request, reply);
      return reply;
    }
  }

  function report(nestHandler: RouteHandlerMethod): RouteHandlerMethod {
    return async function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      const { hostname } = request.params as { hostname: string };
      try {
        const parts = app();
        const principal = await authorizeRequest(request as unknown as AuthenticatedRequest, parts.reportAccess, parts.auth, parts.policy);
        const unchanged = await confirmUnchanged(parts.commands, hostname, request);
        if (unchanged !== undefined) {
          metrics?.reportAnswered('shortcut');
          await parts.sightings.record(hostname, principal, request);
          return hostReportResponse(hostname, unchanged);
        }
      } catch (error) {
        sendError(error, request, reply);
        return reply;
      }
      metrics?.reportAnswered('full');
      return nestHandler.call(this, request, reply);
    };
  }

  fastify.addHook('onRoute', (route) => {
    const key = `${[route.method].flat().join(',')} ${route.url}`;
    if (key === HEARTBEAT_ROUTE) route.handler = heartbeat;
    else if (key === REPORT_ROUTE) route.handler = report(route.handler);
  });

  return {
    attach(nest: INestApplicationContext): void {
      const auth = nest.get<AuthOptions>(AUTH_OPTIONS, { strict: false });
      dependencies = {
        auth,
        policy: auth.policy ?? new PolicyEnforcer(),
        heartbeatAccess: routeAccessOf(HeartbeatController, HeartbeatController.prototype.heartbeat),
        reportAccess: routeAccessOf(HostReportController, HostReportController.prototype.report),
        heartbeats: nest.get(HeartbeatRecorder, { strict: false }),
        sightings: nest.get(AgentSightings, { strict: false }),
        commands: nest.get(CommandBus, { strict: false }),
      };
    },
  };
}

/** The unchanged report's short cut: the answer when the body's bytes are the last ones found unchanged for this host's state. */
async function confirmUnchanged(commands: CommandBus, hostname: string, request: FastifyRequest): Promise<InventoryCommandResult | undefined> {
  const digest = requestBodyDigest(request);
  if (digest === undefined) return undefined;
  return commands.execute(new ConfirmUnchangedReportCommand(hostname, digest));
}
