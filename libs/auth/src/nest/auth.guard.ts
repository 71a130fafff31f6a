import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { missingToken, roleRequired, serviceTokenWithoutRole, wrongHost } from '../domain/auth-errors';
import { hasAnyRole, hasRole, isAdmin, type Principal, type Role } from '../domain/principal';
import { ALLOWED_ROLES, HOST_PARAM, PUBLIC_ROUTE } from './auth.decorators';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';

interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  params?: Record<string, string>;
  principal?: Principal;
}

const DEV_PRINCIPAL: Principal = { user: 'dev-no-auth', project: 'admin', roles: ['admin'] };

/**
 * Authenticates every request (X-Auth-Token, or Authorization: Bearer) and
 * checks the route's roles. Fails closed: a route that declares neither
 * @Public nor @Allow is refused.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = this.authenticate(request);
    request.principal = principal;

    const allowed = this.reflector.getAllAndOverride<Role[] | undefined>(ALLOWED_ROLES, targets) ?? [];
    if (!hasAnyRole(principal, allowed)) throw roleRequired(allowed);

    const hostParam = this.reflector.getAllAndOverride<string | undefined>(HOST_PARAM, targets);
    if (hostParam !== undefined && !isAdmin(principal)) {
      const requested = request.params?.[hostParam] ?? '';
      if (principal.host !== requested) throw wrongHost(principal.host, requested);
    }
    return true;
  }

  private authenticate(request: AuthenticatedRequest): Principal {
    const token = tokenOf(request.headers);
    if (token === undefined) {
      if (this.options.devNoAuth) return DEV_PRINCIPAL;
      throw missingToken();
    }
    const { user, project, roles, host } = this.options.codec.verify(token);
    const principal: Principal = { user, project, roles, ...(host !== undefined ? { host } : {}) };
    return withServiceToken(principal, this.serviceTokenOf(request.headers));
  }

  /**
   * Nova sends the user's token plus its own in X-Service-Token (Cyborg's
   * CVE-2026-40214 fix requires it for bind and unbind). A service token that
   * is present must be valid and carry the service role: a bad one is refused,
   * never silently ignored.
   */
  private serviceTokenOf(headers: AuthenticatedRequest['headers']): Principal | undefined {
    const token = headers['x-service-token'];
    if (typeof token !== 'string' || token.length === 0) return undefined;
    const service = this.options.codec.verify(token);
    if (!hasRole(service, 'service')) throw serviceTokenWithoutRole();
    return service;
  }
}

function withServiceToken(principal: Principal, service: Principal | undefined): Principal {
  if (service === undefined) return principal;
  const roles = principal.roles.includes('service') ? principal.roles : [...principal.roles, 'service' as const];
  return { ...principal, roles, serviceUser: service.user };
}

function tokenOf(headers: AuthenticatedRequest['headers']): string | undefined {
  const direct = headers['x-auth-token'];
  if (typeof direct === 'string' && direct.length > 0) return direct;
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.startsWith('Bearer ')) return authorization.slice(7).trim();
  return undefined;
}
