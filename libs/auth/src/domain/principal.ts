/** Roles a token can carry: OpenStack's, plus `agent` for a host's own agent. */
export const ROLES = ['admin', 'manager', 'member', 'reader', 'service', 'agent'] as const;
export type Role = (typeof ROLES)[number];

/** The authenticated caller of a request. */
export interface Principal {
  readonly user: string;
  readonly project: string | null;
  /**
   * The token's roles, plus `service` when a valid X-Service-Token carries it
   * (as Nova sends). Keystone's tokens may carry roles of the cloud's own
   * naming beside the ones the ledger knows; policy rules may name them.
   */
  readonly roles: readonly string[];
  /** For `agent` tokens: the one host this agent may speak for. */
  readonly host?: string;
  /** The user of the X-Service-Token that vouched for this request, if any. */
  readonly serviceUser?: string;
  /** Keystone's domain ids of the user and of the project (Keystone tokens only), for policy rules that name them. */
  readonly userDomain?: string;
  readonly projectDomain?: string;
}

/**
 * Keystone's default role implications: an admin is also a manager, a
 * manager a member, a member a reader. Tokens carry only what was granted;
 * every check goes through `hasRole`, so an admin passes a reader rule.
 */
const IMPLIED: Readonly<Record<Role, readonly Role[]>> = {
  admin: ['admin', 'manager', 'member', 'reader'],
  manager: ['manager', 'member', 'reader'],
  member: ['member', 'reader'],
  reader: ['reader'],
  service: ['service'],
  agent: ['agent'],
};

export const hasRole = (principal: Pick<Principal, 'roles'>, role: string): boolean =>
  principal.roles.some((granted) => granted === role || (isKnownRole(granted) && IMPLIED[granted].includes(role as Role)));

/** The token's roles with the ones they imply, each once: what a Keystone token lists. */
export const impliedRoles = (principal: Pick<Principal, 'roles'>): string[] => [
  ...new Set(principal.roles.flatMap((granted) => (isKnownRole(granted) ? [granted, ...IMPLIED[granted]] : [granted]))),
];

export const isKnownRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);

export const hasAnyRole = (principal: Pick<Principal, 'roles'>, roles: readonly string[]): boolean => roles.some((role) => hasRole(principal, role));

export const isAdmin = (principal: Pick<Principal, 'roles'>): boolean => hasRole(principal, 'admin');
