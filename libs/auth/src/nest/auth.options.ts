import type { Principal } from '../domain/principal';
import type { PolicyEnforcer } from '../policy/policy-enforcer';
import type { TokenCodec } from '../tokens/token-codec';

export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');

/** The ledger's own Keystone session (or null when LEDGER_KEYSTONE_URL is unset), for whatever calls other OpenStack services. */
export const KEYSTONE_SESSION = Symbol('KEYSTONE_SESSION');

/**
 * Tokens another identity service vouches for (Keystone's, in
 * `LEDGER_AUTH=keystone`): checked against it, asynchronously, with a cache.
 */
export interface ExternalTokens {
  /** The token's holder; throws AUTH.TOKEN_INVALID / AUTH.TOKEN_EXPIRED, or AUTH.IDENTITY_UNAVAILABLE when the service cannot answer. */
  verify(token: string): Promise<Principal>;
  /** Roles of which an X-Service-Token must carry one (keystonemiddleware's `service_token_roles`). */
  readonly serviceTokenRoles: readonly string[];
}

export interface AuthOptions {
  /** The ledger's own signed tokens (agents always use them). */
  readonly codec: TokenCodec;
  /** Accept requests without a token as an admin. Development only; logged loudly at start-up. */
  readonly devNoAuth: boolean;
  /** Set when the ledger validates Keystone's tokens; the ledger's own are then accepted only when `acceptLedgerTokens`. */
  readonly external?: ExternalTokens;
  /** With `external`: whether the ledger's own tokens stay accepted beside Keystone's (agents need them). */
  readonly acceptLedgerTokens?: boolean;
  /** The v2 policy rules (LEDGER_POLICY_FILE over Cyborg's defaults); unset: Cyborg's defaults. */
  readonly policy?: PolicyEnforcer;
}
