import { type AuthOptions, KeystoneSession, KeystoneTokens, loadPolicyEnforcer, type TokenCodec } from '@ledger/auth';
import type { LedgerConfig } from '@ledger/config';

export interface LedgerIdentity {
  readonly auth: AuthOptions;
  /** The ledger's own Keystone session, when LEDGER_KEYSTONE_URL is set: it validates tokens and reaches Placement and Nova. */
  readonly keystoneSession: KeystoneSession | null;
}

/** Whose tokens this ledger accepts, from LEDGER_AUTH and LEDGER_KEYSTONE_* (docs/keystone.md), and the v2 policy from LEDGER_POLICY_FILE (docs/policy.md). */
export function ledgerIdentity(config: LedgerConfig, codec: TokenCodec): LedgerIdentity {
  const keystone = config.auth.keystone;
  const keystoneSession = keystone
    ? new KeystoneSession({
        authUrl: keystone.authUrl,
        credentials: keystone.credentials,
        interface: keystone.interface,
        region: keystone.region,
        timeoutMs: keystone.timeoutMs,
      })
    : null;
  const external =
    config.auth.mode === 'keystone' && keystone && keystoneSession
      ? new KeystoneTokens({
          session: keystoneSession,
          serviceTokenRoles: keystone.serviceTokenRoles,
          revalidateSeconds: keystone.tokenCacheSeconds,
          cacheSize: keystone.tokenCacheSize,
          timeoutMs: keystone.timeoutMs,
        })
      : undefined;
  return {
    auth: {
      codec,
      devNoAuth: config.devNoAuth,
      policy: loadPolicyEnforcer(config.policyFile),
      ...(external ? { external, acceptLedgerTokens: config.auth.acceptLedgerTokens } : {}),
    },
    keystoneSession,
  };
}
