import type { Principal } from '@ledger/auth';
import type { TestLedger, TestResponse } from './ledger-app';

/** The matrix's columns, in the order every row lists its outcomes. */
export const CALLERS = ['none', 'reader', 'member', 'manager', 'admin', 'service', 'nova', 'agent'] as const;
export type Caller = (typeof CALLERS)[number];

export const PROJECT_A = 'tenant-a';
export const PROJECT_B = 'tenant-b';
export const AGENT_HOST = 'compute-1';

export const SERVICE_USER: Principal = { user: 'nova-service', project: 'service', roles: ['service'] };

/**
 * Who each caller is. `nova` is a tenant member's own token plus Nova's
 * X-Service-Token, which is what Nova sends; `service` is the service user
 * alone, in its own project.
 */
const PRINCIPALS: Readonly<Record<Exclude<Caller, 'none'>, Principal>> = {
  reader: { user: 'rita', project: PROJECT_A, roles: ['reader'] },
  member: { user: 'alice', project: PROJECT_A, roles: ['member'] },
  manager: { user: 'mo', project: PROJECT_A, roles: ['manager'] },
  admin: { user: 'admin', project: 'admin', roles: ['admin'] },
  service: SERVICE_USER,
  nova: { user: 'alice', project: PROJECT_A, roles: ['member'] },
  agent: { user: `agent:${AGENT_HOST}`, project: null, roles: ['agent'], host: AGENT_HOST },
};

/** The project of the caller's token: null for the agent and without a token. */
export const projectOf = (caller: Caller): string | null => (caller === 'none' ? null : PRINCIPALS[caller].project);

/** The headers that authenticate `caller` (none for `none`). */
export function credentialsOf(ledger: TestLedger, caller: Caller): Record<string, string> {
  if (caller === 'none') return {};
  const own = { 'x-auth-token': ledger.token(PRINCIPALS[caller]) };
  return caller === 'nova' ? { ...own, 'x-service-token': ledger.token(SERVICE_USER) } : own;
}

export type Outcome =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'hidden' }
  | { readonly kind: 'unauthenticated' }
  | { readonly kind: 'forbidden'; readonly code: string };

/** 2xx: the caller may do this. */
export const OK: Outcome = { kind: 'allowed' };
/** The caller may call, but the target is another project's: 404, or absent from a list; never its data. */
export const HIDDEN: Outcome = { kind: 'hidden' };
/** 401 AUTH.TOKEN_MISSING. */
export const NO_TOKEN: Outcome = { kind: 'unauthenticated' };
/** 403 with this X-Error-Code. */
export const forbidden = (code: string): Outcome => ({ kind: 'forbidden', code });

/** One outcome per caller, in the order of CALLERS. */
export type Outcomes = readonly [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

export const labelOf = (outcome: Outcome): string => {
  switch (outcome.kind) {
    case 'allowed':
      return 'allowed';
    case 'hidden':
      return 'hidden (404 / absent)';
    case 'unauthenticated':
      return '401';
    case 'forbidden':
      return `403 ${outcome.code}`;
  }
};

/** Status and X-Error-Code of a refusal; what allowed and hidden mean is the row's to check. */
export function expectRefusal(response: TestResponse, outcome: Outcome): void {
  const got = { status: response.status, code: response.headers.get('x-error-code') };
  if (outcome.kind === 'unauthenticated') expect(got).toEqual({ status: 401, code: 'AUTH.TOKEN_MISSING' });
  if (outcome.kind === 'forbidden') expect(got).toEqual({ status: 403, code: outcome.code });
}
