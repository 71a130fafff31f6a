import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler, RouteHandlerMethod } from 'fastify';
import { AUTH_OPTIONS, type AuthOptions, PolicyEnforcer } from '@ledger/auth';
import { type AuthenticatedRequest, authorizeRequest, type RouteAccess, routeAccessOf } from '@ledger/auth/nest';
import { ConfirmUnchangedReportCommand, type InventoryCommandResult } from '@ledger/inventory';
import { requestBodyDigest } from '../http/request-body-digest';
import type { RequestIdentity } from '../http/request-ids';
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

  /**
   * A heartbeat's checks and work, the same whichever way it came in
   * (Fastify's route, or the raw listener): its answer, or the error to answer.
   */
  async function answerHeartbeat(hostname: string, request: AuthenticatedRequest, body: unknown, identity: RequestIdentity): Promise<object> {
    const parts = app();
    const principal = await authorizeRequest(request, parts.heartbeatAccess, parts.auth, parts.policy);
    const heartbeat = (await pipe.transform(body, heartbeatBody)) as HeartbeatRequest;
    return parts.heartbeats.record(hostname, heartbeat, principal, identity);
  }

  /**
   * A report's short cut, the same whichever way it came in: the answer when
   * its body (`bodyKey` holds its text) is the unchanged one, undefined for a
   * report that changes something (Nest's handler takes it), or the error.
   */
  async function answerUnchangedReport(hostname: string, request: AuthenticatedRequest, bodyKey: object, identity: RequestIdentity): Promise<object | undefined> {
    const parts = app();
    const principal = await authorizeRequest(request, parts.reportAccess, parts.auth, parts.policy);
    const unchanged = await confirmUnchanged(parts.commands, hostname, bodyKey);
    if (unchanged === undefined) return undefined;
    metrics?.reportAnswered('shortcut');
    await parts.sightings.record(hostname, principal, identity);
    return hostReportResponse(hostname, unchanged);
  }

  async function heartbeat(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const failed = failureHandedOver(request.raw);
    if (failed) return answerFailure(failed.error, request, reply);
    try {
      return await answerHeartbeat(hostnameOf(request), request as unknown as AuthenticatedRequest, request.body, request);
    } catch (error) {
      return answerFailure(error, request, reply);
    }
  }

  function report(nestHandler: RouteHandlerMethod): RouteHandlerMethod {
    return async function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      const failed = failureHandedOver(request.raw);
      if (failed) return answerFailure(failed.error, request, reply);
      try {
        const answer = await answerUnchangedReport(hostnameOf(request), request as unknown as AuthenticatedRequest, request, request);
        if (answer !== undefined) return answer;
      } catch (error) {
        return answerFailure(error, request, reply);
      }
      metrics?.reportAnswered('full');
      return nestHandler.call(this, request, reply);
    };
  }

  /**
   * The raw listener's work: the same checks and work as the routes above.
   * A success is its answer; a report that changes something goes to the
   * route untouched, and an error to be answered goes there with it.
   */
  function serveRaw({ call, hostname, body, ids, raw: rawRequest }: RawAgentCall): Promise<RawOutcome> {
    const request: AuthenticatedRequest = { headers: ids.headers as AuthenticatedRequest['headers'], params: { hostname } };
    return inCallContext(ids, async (): Promise<RawOutcome> => {
      try {
        const answer = call === 'heartbeat' ? await answerHeartbeat(hostname, request, body, ids) : await answerUnchangedReport(hostname, request, rawRequest, ids);
        return answer === undefined ? HAND_OVER : { answer };
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

const hostnameOf = (request: FastifyRequest): string => (request.params as { hostname: string }).hostname;

/** An error of a call's checks or work, in the route or handed over by the raw listener, answered as Nest's filter answers it. */
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
