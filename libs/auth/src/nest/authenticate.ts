import { missingToken, serviceTokenWithoutRole } from '../domain/auth-errors';
import { hasRole, type Principal } from '../domain/principal';
import type { AuthOptions } from './auth.options';

export type RequestHeaders = Record<string, string | string[] | undefined>;

const DEV_PRINCIPAL: Principal = { user: 'dev-no-auth', project: 'admin', roles: ['admin'] };

/**
 * The caller of a request, from its token (X-Auth-Token, or Authorization:
 * Bearer) and Nova's X-Service-Token. Throws AUTH.TOKEN_MISSING /
 * AUTH.TOKEN_INVALID / AUTH.TOKEN_EXPIRED. Shared by the REST guard and the
 * GraphQL route, so both accept exactly the same tokens.
 */
export function authenticate(headers: RequestHeaders, options: AuthOptions): Principal {
  const token = tokenOf(headers);
  if (token === undefined) {
    if (options.devNoAuth) return DEV_PRINCIPAL;
    throw missingToken();
  }
  const { user, project, roles, host } = options.codec.verify(token);
  const principal: Principal = { user, project, roles, ...(host !== undefined ? { host } : {}) };
  return withServiceToken(principal, serviceTokenOf(headers, options));
}

/**
 * Nova sends the user's token plus its own in X-Service-Token (Cyborg's
 * CVE-2026-40214 fix requires it for bind and unbind). A service token that
 * is present must be valid and carry the service role: a bad one is refused,
 * never silently ignored.
 */
function serviceTokenOf(headers: RequestHeaders, options: AuthOptions): Principal | undefined {
  const token = headers['x-service-token'];
  if (typeof token !== 'string' || token.length === 0) return undefined;
  const service = options.codec.verify(token);
  if (!hasRole(service, 'service')) throw serviceTokenWithoutRole();
  return service;
}

function withServiceToken(principal: Principal, service: Principal | undefined): Principal {
  if (service === undefined) return principal;
  const roles = principal.roles.includes('service') ? principal.roles : [...principal.roles, 'service' as const];
  return { ...principal, roles, serviceUser: service.user };
}

function tokenOf(headers: RequestHeaders): string | undefined {
  const direct = headers['x-auth-token'];
  if (typeof direct === 'string' && direct.length > 0) return direct;
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.startsWith('Bearer ')) return authorization.slice(7).trim();
  return undefined;
}
