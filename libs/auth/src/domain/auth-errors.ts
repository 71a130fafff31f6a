import { ForbiddenError, UnauthenticatedError } from '@ledger/kernel';

export const missingToken = () =>
  new UnauthenticatedError('AUTH.TOKEN_MISSING', 'this endpoint needs a token in X-Auth-Token or Authorization: Bearer');

export const invalidToken = (why: string) => new UnauthenticatedError('AUTH.TOKEN_INVALID', `the token is not valid: ${why}`);

export const expiredToken = () => new UnauthenticatedError('AUTH.TOKEN_EXPIRED', 'the token has expired');

export const roleRequired = (roles: readonly string[]) =>
  new ForbiddenError('AUTH.ROLE_REQUIRED', `this action needs one of the roles: ${roles.join(', ')}`, { roles });

export const policyDenied = (rule: string) =>
  new ForbiddenError('AUTH.POLICY_DENIED', `the policy does not allow ${rule} to be performed`, { rule });

export const wrongHost = (credentialHost: string | undefined, requestedHost: string) =>
  new ForbiddenError('AUTH.WRONG_HOST', `an agent credential for ${credentialHost ?? 'no host'} cannot speak for ${requestedHost}`, {
    credentialHost: credentialHost ?? null,
    requestedHost,
  });

export const serviceTokenWithoutRole = (roles: readonly string[]) =>
  new ForbiddenError('AUTH.SERVICE_TOKEN_ROLE', `the X-Service-Token carries none of the service roles: ${roles.join(', ')}`, { roles });
