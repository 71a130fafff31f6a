import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Principal, Role } from '../domain/principal';
import type { CyborgApiRule } from '../policy/cyborg-default-rules';

export const PUBLIC_ROUTE = 'ledger:public-route';
export const ALLOWED_ROLES = 'ledger:allowed-roles';
export const HOST_PARAM = 'ledger:host-param';
export const POLICY_RULE = 'ledger:policy-rule';

/** No token needed (health probes, version discovery). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The caller needs at least one of these roles. Routes without it are refused: access is never implicit. */
export const Allow = (...roles: Role[]) => SetMetadata(ALLOWED_ROLES, roles);

/**
 * A Cyborg v2 route: the caller must pass this policy rule, Cyborg's default
 * or the operator's override (docs/policy.md). The one way a v2 route is
 * authorized; the ledger's own API keeps @Allow.
 */
export const PolicyRule = (rule: CyborgApiRule) => SetMetadata(POLICY_RULE, rule);

/** An `agent` caller may act only when its credential's host equals this route parameter. */
export const HostScoped = (param: string) => SetMetadata(HOST_PARAM, param);

/** The authenticated caller, as the guard resolved it. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => context.switchToHttp().getRequest<{ principal: Principal }>().principal,
);
