import { invalidToken, missingToken, serviceTokenWithoutRole } from '../domain/auth-errors';
import { hasAnyRole, type Principal } from '../domain/principal';
import { looksLikeLedgerToken } from '../tokens/token-codec';
import type { AuthOptions } from './auth.options';

export type RequestHeaders = Record<string, string | string[] | undefined>;

const DEV_PRINCIPAL: Principal = { user: 'dev-no-auth', project: 'admin', roles: ['admin'] };

/** The roles a ledger-signed X-Service-Token must carry one of. */
const LEDGER_SERVICE_ROLES = ['service'];

/**
 * The caller of a request, from its token (X-Auth-Token, or Authorization:
 * Bearer) and Nova's X-Service-Token. Throws AUTH.TOKEN_MISSING /
 * AUTH.TOKEN_INVALID / AUTH.TOKEN_EXPIRED (and AUTH.IDENTITY_UNAVAILABLE when
 * Keystone cannot answer). Shared by the REST guard and the GraphQL route,
 * so both accept exactly the same tokens.
 */
export async function authenticate(headers: RequestHeaders, options: AuthOptions): Promise<Principal> {
  const token = tokenOf(headers);
  if (token === undefined) {
    if (options.devNoAuth) return DEV_PRINCIPAL;
    throw missingToken();
  }
  const principal = await verify(token, options);
  return withServiceToken(principal, await serviceTokenOf(headers, options));
}

/**
 * A ledger token (a JWT, unmistakable by its form) goes to the codec; any
 * other token to Keystone when it is configured. So the ledger never sends
 * its own tokens to Keystone, nor a Keystone token through its HMAC check.
 */
function verify(token: string, options: AuthOptions): Principal | Promise<Principal> {
  if (options.external === undefined) return options.codec.verify(token);
  if (!looksLikeLedgerToken(token)) return options.external.verify(token);
  if (options.acceptLedgerTokens) return options.codec.verify(token);
  throw invalidToken('this ledger accepts Keystone tokens only (LEDGER_AUTH=keystone); a ledger-signed token is not one');
}

/**
 * Nova sends the user's token plus its own in X-Service-Token (Cyborg's
 * CVE-2026-40214 fix requires it for bind and unbind). A service token that
 * is present must be valid and carry a service role (keystonemiddleware's
 * `service_token_roles`): a bad one is refused, never silently ignored.
 */
async function serviceTokenOf(headers: RequestHeaders, options: AuthOptions): Promise<Principal | undefined> {
  const token = headers['x-service-token'];
  if (typeof token !== 'string' || token.length === 0) return undefined;
  const service = await verify(token, options);
  const serviceRoles = options.external !== undefined && !looksLikeLedgerToken(token) ? options.external.serviceTokenRoles : LEDGER_SERVICE_ROLES;
  if (!hasAnyRole(service, serviceRoles)) throw serviceTokenWithoutRole(serviceRoles);
  return service;
}

function withServiceToken(principal: Principal, service: Principal | undefined): Principal {
  if (service === undefined) return principal;
  const roles = principal.roles.includes('service') ? principal.roles : [...principal.roles, 'service'];
  return { ...principal, roles, serviceUser: service.user };
}

function tokenOf(headers: RequestHeaders): string | undefined {
  const direct = headers['x-auth-token'];
  if (typeof direct === 'string' && direct.length > 0) return direct;
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.startsWith('Bearer ')) return authorization.slice(7).trim();
  return undefined;
}
