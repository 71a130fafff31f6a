import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { policyDenied, roleRequired, wrongHost } from '../domain/auth-errors';
import { hasAnyRole, isAdmin, type Principal } from '../domain/principal';
import type { CyborgApiRule } from '../policy/cyborg-default-rules';
import { PolicyEnforcer } from '../policy/policy-enforcer';
import { ALLOWED_ROLES, HOST_PARAM, POLICY_RULE, PUBLIC_ROUTE } from './auth.decorators';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import { authenticate, type RequestHeaders } from './authenticate';

export interface AuthenticatedRequest {
  headers: RequestHeaders;
  params?: Record<string, string>;
  principal?: Principal;
}

/**
 * Authenticates every request (X-Auth-Token, or Authorization: Bearer) and
 * checks the route's policy rule (@PolicyRule, the v2 API) or roles
 * (@Allow). Fails closed: a route that declares none of @Public,
 * @PolicyRule and @Allow is refused. GraphQL resolvers are checked the same way:
 * their request is the one in the GraphQL context, authenticated once per
 * HTTP request.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly policy: PolicyEnforcer;

  constructor(
    private readonly reflector: Reflector,
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
  ) {
    this.policy = options.policy ?? new PolicyEnforcer();
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const access: RouteAccess = {
      rule: this.reflector.getAllAndOverride<CyborgApiRule | undefined>(POLICY_RULE, targets),
      allowed: this.reflector.getAllAndOverride<string[] | undefined>(ALLOWED_ROLES, targets) ?? [],
      hostParam: this.reflector.getAllAndOverride<string | undefined>(HOST_PARAM, targets),
    };
    await authorizeRequest(requestOf(context), access, this.options, this.policy);
    return true;
  }
}

/** What a route asks of its caller, as its decorators (@PolicyRule, @Allow, @HostScoped) declare it. */
export interface RouteAccess {
  readonly rule?: CyborgApiRule;
  readonly allowed: readonly string[];
  readonly hostParam?: string;
}

/** A controller method's RouteAccess, read from its decorators as the guard reads them (the method's own first, then its class's). */
export function routeAccessOf(controller: Function, method: Function): RouteAccess {
  const read = <T>(key: string): T | undefined => (Reflect.getMetadata(key, method) ?? Reflect.getMetadata(key, controller)) as T | undefined;
  return { rule: read<CyborgApiRule>(POLICY_RULE), allowed: read<string[]>(ALLOWED_ROLES) ?? [], hostParam: read<string>(HOST_PARAM) };
}

/**
 * Authenticates the request (once: the principal is kept on it) and checks
 * `access`; throws the guard's errors. The guard's own check, and the one
 * the ledger's lean agent routes call outside Nest's pipeline.
 */
export async function authorizeRequest(request: AuthenticatedRequest, access: RouteAccess, options: AuthOptions, policy: PolicyEnforcer): Promise<Principal> {
  const principal = request.principal ?? (await authenticate(request.headers, options));
  request.principal = principal;
  if (access.rule !== undefined) {
    if (!policy.authorize(access.rule, principal)) throw policyDenied(access.rule);
  } else if (!hasAnyRole(principal, access.allowed)) {
    throw roleRequired(access.allowed);
  }
  if (access.hostParam !== undefined && !isAdmin(principal)) {
    const requested = request.params?.[access.hostParam] ?? '';
    if (principal.host !== requested) throw wrongHost(principal.host, requested);
  }
  return principal;
}

/** The HTTP request, also under a GraphQL resolver (its context's `req`, as the Mercurius driver sets it). */
function requestOf(context: ExecutionContext): AuthenticatedRequest {
  if (context.getType<string>() === 'graphql') return context.getArgByIndex<{ req: AuthenticatedRequest }>(2).req;
  return context.switchToHttp().getRequest<AuthenticatedRequest>();
}
