/** Roles a token can carry: OpenStack's, plus `agent` for a host's own agent. */
export const ROLES = ['admin', 'manager', 'member', 'reader', 'service', 'agent'] as const;
export type Role = (typeof ROLES)[number];

/** The authenticated caller of a request. */
export interface Principal {
  readonly user: string;
  readonly project: string | null;
  readonly roles: readonly Role[];
  /** For `agent` tokens: the one host this agent may speak for. */
  readonly host?: string;
}

export const hasAnyRole = (principal: Principal, roles: readonly Role[]): boolean =>
  principal.roles.some((role) => roles.includes(role));
