import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { policyDenied, roleRequired, wrongHost } from '../domain/auth-errors';
import { hasAnyRole, isAdmin, type Principal } from '../domain/principal';
import type { CyborgApiRule } from '../policy/cyborg-default-rules';
import { PolicyEnforcer } from '../policy/policy-enforcer';
import { ALLOWED_ROLES, HOST_PARAM, POLICY_RULE, PUBLIC_ROUTE } from './auth.decorators';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import { authenticate, type RequestHeaders } from './authenticate';

interface AuthenticatedRequest {
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
    const request = requestOf(context);
    const principal = request.principal ?? (await authenticate(request.headers, this.options));
    request.principal = principal;

    const rule = this.reflector.getAllAndOverride<CyborgApiRule | undefined>(POLICY_RULE, targets);
    if (rule !== undefined) {
      if (!this.policy.authorize(rule, principal)) throw policyDenied(rule);
    } else {
      const allowed = this.reflector.getAllAndOverride<string[] | undefined>(ALLOWED_ROLES, targets) ?? [];
      if (!hasAnyRole(principal, allowed)) throw roleRequired(allowed);
    }

    const hostParam = this.reflector.getAllAndOverride<string | undefined>(HOST_PARAM, targets);
    if (hostParam !== undefined && !isAdmin(principal)) {
      const requested = request.params?.[hostParam] ?? '';
      if (principal.host !== requested) throw wrongHost(principal.host, requested);
    }
    return true;
  }
}

/** The HTTP request, also under a GraphQL resolver (its context's `req`, as the Mercurius driver sets it). */
function requestOf(context: ExecutionContext): AuthenticatedRequest {
  if (context.getType<string>() === 'graphql') return context.getArgByIndex<{ req: AuthenticatedRequest }>(2).req;
  return context.switchToHttp().getRequest<AuthenticatedRequest>();
}
