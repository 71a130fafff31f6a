import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler, RouteHandlerMethod } from 'fastify';
import { AUTH_OPTIONS, type AuthOptions, PolicyEnforcer, type Principal } from '@ledger/auth';
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
import { AGENT_ROUTES, bodyHandedOver, failureHandedOver, inCallContext, type RawAgentCall, RawAgentCalls, type RawOutcome } from './raw-agent-calls';

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

/** What the raw listener needs of the app's settings; absent (tracing, or a log line per request): every call goes through Fastify. */
export interface RawServingOptions {
  /** False while the read models are being prepared. */
  ready(): boolean;
  readonly bodyLimit: number;
  readonly jsonMaxDepth: number;
}

/** Where the lean routes get the app's parts: `attach` once NestFactory built it, before it listens. */
export interface LeanAgentRoutes {
  attach(app: INestApplicationContext, raw?: RawServingOptions): void;
}

const HAND_OVER: RawOutcome = { handOver: true };

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
 *
 * In front of them, `raw` (raw-agent-calls.ts, Fastify's `serverFactory`)
 * answers the successful calls in Node's own request listener, with the
 * same checks and work (`serveRaw`); a call it does not answer comes here
 * with its body, and a failure of its work to be answered (`failureHandedOver`).
 */
export function serveAgentCallsLean(fastify: FastifyInstance, metrics: LedgerMetrics | undefined, raw: RawAgentCalls): LeanAgentRoutes {
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
    const failed = failureHandedOver(request.raw);
    if (failed) return answerFailure(failed.error, request, reply);
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
      const failed = failureHandedOver(request.raw);
      if (failed) return answerFailure(failed.error, request, reply);
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

  /** The raw listener's work: the same checks and services as the handlers above; anything but a success goes to them. */
  async function serveRaw({ call, hostname, body, ids, raw: rawRequest }: RawAgentCall): Promise<RawOutcome> {
    const parts = app();
    const request: AuthenticatedRequest = { headers: ids.headers as AuthenticatedRequest['headers'], params: { hostname } };
    let principal: Principal;
    let heartbeatRequest: HeartbeatRequest | undefined;
    try {
      principal = await authorizeRequest(request, call === 'heartbeat' ? parts.heartbeatAccess : parts.reportAccess, parts.auth, parts.policy);
      if (call === 'heartbeat') heartbeatRequest = (await pipe.transform(body, heartbeatBody)) as HeartbeatRequest;
    } catch {
      return HAND_OVER; // refused: Fastify's route checks again and answers the refusal
    }
    return inCallContext(ids, async (): Promise<RawOutcome> => {
      try {
        if (heartbeatRequest !== undefined) return { answer: await parts.heartbeats.record(hostname, heartbeatRequest, principal, ids) };
        const unchanged = await confirmUnchanged(parts.commands, hostname, rawRequest);
        if (unchanged === undefined) return HAND_OVER; // a changed report: Nest's handler, through the route
        metrics?.reportAnswered('shortcut');
        await parts.sightings.record(hostname, principal, ids);
        return { answer: hostReportResponse(hostname, unchanged) };
      } catch (failure) {
        return { handOver: true, failure };
      }
    });
  }

  // A call the raw listener handed over reads the body it had read already.
  const restoreBody: preParsingHookHandler = (request, _reply, payload, done) => done(null, bodyHandedOver(request.raw, payload));
  fastify.addHook('onRoute', (route) => {
    const key = `${[route.method].flat().join(',')} ${route.url}`;
    if (key !== HEARTBEAT_ROUTE && key !== REPORT_ROUTE) return;
    route.handler = key === HEARTBEAT_ROUTE ? heartbeat : report(route.handler);
    route.preParsing = [...[route.preParsing ?? []].flat(), restoreBody];
  });
  const parseJson = jsonParserOf(fastify);

  return {
    attach(nest: INestApplicationContext, rawOptions?: RawServingOptions): void {
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
      if (rawOptions === undefined) return;
      raw.attach({
        ...rawOptions,
        parseJson,
        serve: serveRaw,
        answered: (call, status, seconds) => metrics?.requestAnswered(call === 'heartbeat' ? 'POST' : 'PUT', AGENT_ROUTES[call], status, seconds),
      });
    },
  };
}

/** A failure of a call's work in the raw listener, answered as this route answers its own. */
function answerFailure(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  sendError(error, request, reply);
  return reply;
}

/** Fastify's own JSON parser (prototype poisoning refused, as the ledger's body parser has it), as a function that throws where Fastify answers 400. */
function jsonParserOf(fastify: FastifyInstance): (text: string) => unknown {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  return (text) => {
    let parsed: { error: Error | null; value?: unknown } = { error: new Error('the JSON parser did not answer') };
    parse(undefined as never, text, (error, value) => (parsed = { error, value }));
    if (parsed.error) throw parsed.error;
    return parsed.value;
  };
}

/** The unchanged report's short cut: the answer when the body's bytes are the last ones found unchanged for this host's state. */
async function confirmUnchanged(commands: CommandBus, hostname: string, request: object): Promise<InventoryCommandResult | undefined> {
  const digest = requestBodyDigest(request);
  if (digest === undefined) return undefined;
  return commands.execute(new ConfirmUnchangedReportCommand(hostname, digest));
}
