import { ConfigError } from './config-error';
import { booleanSetting, type Env, integerSetting, nonEmpty, urlSetting } from './env-values';

/** Whose tokens the ledger accepts: its own signed ones (the embedded default), or Keystone's. */
export type AuthMode = 'ledger' | 'keystone';

/** How the ledger proves itself to Keystone: a service user's password, or an application credential. */
export type KeystoneClientCredentials =
  | {
      readonly kind: 'password';
      readonly username: string;
      readonly password: string;
      readonly userDomainName: string;
      readonly projectName: string;
      readonly projectDomainName: string;
    }
  | { readonly kind: 'application-credential'; readonly id: string; readonly secret: string };

/** The ledger in a cloud with Keystone (docs/keystone.md). */
export interface KeystoneConfig {
  /** LEDGER_KEYSTONE_URL: the identity endpoint, e.g. http://keystone:5000/v3. */
  readonly authUrl: string;
  /**
   * LEDGER_KEYSTONE_USERNAME / _PASSWORD / _PROJECT_NAME (service) / _USER_DOMAIN_NAME (Default) /
   * _PROJECT_DOMAIN_NAME (Default), or LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_ID / _SECRET:
   * the ledger's own service credentials (it needs the `service` role to validate tokens).
   */
  readonly credentials: KeystoneClientCredentials;
  /** LEDGER_KEYSTONE_INTERFACE (public): which catalog endpoints the ledger calls (public, internal, admin). */
  readonly interface: 'public' | 'internal' | 'admin';
  /** LEDGER_KEYSTONE_REGION: the catalog region; unset: the first endpoint of the interface. */
  readonly region?: string;
  /** LEDGER_KEYSTONE_SERVICE_TOKEN_ROLES (service): an X-Service-Token must carry one (keystonemiddleware's service_token_roles). */
  readonly serviceTokenRoles: readonly string[];
  /**
   * LEDGER_KEYSTONE_TOKEN_CACHE_SECONDS (60): how long a validation is trusted
   * before Keystone is asked again, so how long a revoked token may still be
   * accepted (keystonemiddleware's token_cache_time, whose default is 300).
   */
  readonly tokenCacheSeconds: number;
  /** LEDGER_KEYSTONE_TOKEN_CACHE_SIZE (10000): validations kept in memory. */
  readonly tokenCacheSize: number;
  /** LEDGER_KEYSTONE_TIMEOUT_MS (5000): a Keystone call taking longer counts as Keystone unavailable (503). */
  readonly timeoutMs: number;
}

export interface AuthConfig {
  /** LEDGER_AUTH (ledger): `keystone` validates Keystone tokens (and needs LEDGER_KEYSTONE_URL and credentials). */
  readonly mode: AuthMode;
  /**
   * LEDGER_AUTH_ACCEPT_LEDGER_TOKENS (true): with LEDGER_AUTH=keystone, whether
   * the ledger's own signed tokens stay accepted beside Keystone's. Agents
   * speak with per-host ledger credentials, so turn it off only in a ledger
   * that no agent calls.
   */
  readonly acceptLedgerTokens: boolean;
  /** Set when LEDGER_KEYSTONE_URL is: the ledger then also finds Placement and Nova in Keystone's catalog. */
  readonly keystone?: KeystoneConfig;
}

export function loadAuthConfig(env: Env): AuthConfig {
  const mode = nonEmpty(env.LEDGER_AUTH) ?? 'ledger';
  if (mode !== 'ledger' && mode !== 'keystone') throw new ConfigError('LEDGER_AUTH', `"${mode}" is not one of ledger, keystone`);
  const keystone = loadKeystoneConfig(env);
  if (mode === 'keystone' && keystone === undefined) throw new ConfigError('LEDGER_KEYSTONE_URL', 'required when LEDGER_AUTH=keystone (e.g. http://keystone:5000/v3)');
  return { mode, acceptLedgerTokens: booleanSetting(env, 'LEDGER_AUTH_ACCEPT_LEDGER_TOKENS', true), ...(keystone ? { keystone } : {}) };
}

function loadKeystoneConfig(env: Env): KeystoneConfig | undefined {
  const authUrl = urlSetting(env, 'LEDGER_KEYSTONE_URL');
  if (authUrl === undefined) return undefined;
  const iface = nonEmpty(env.LEDGER_KEYSTONE_INTERFACE) ?? 'public';
  if (iface !== 'public' && iface !== 'internal' && iface !== 'admin') throw new ConfigError('LEDGER_KEYSTONE_INTERFACE', `"${iface}" is not one of public, internal, admin`);
  const region = nonEmpty(env.LEDGER_KEYSTONE_REGION);
  return {
    authUrl: authUrl.replace(/\/+$/, ''),
    credentials: credentials(env),
    interface: iface,
    ...(region !== undefined ? { region } : {}),
    serviceTokenRoles: (nonEmpty(env.LEDGER_KEYSTONE_SERVICE_TOKEN_ROLES) ?? 'service').split(',').map((role) => role.trim().toLowerCase()).filter(Boolean),
    tokenCacheSeconds: integerSetting(env, 'LEDGER_KEYSTONE_TOKEN_CACHE_SECONDS', 60, 1, 3600),
    tokenCacheSize: integerSetting(env, 'LEDGER_KEYSTONE_TOKEN_CACHE_SIZE', 10_000, 10, 10_000_000),
    timeoutMs: integerSetting(env, 'LEDGER_KEYSTONE_TIMEOUT_MS', 5_000, 100, 120_000),
  };
}

function credentials(env: Env): KeystoneClientCredentials {
  const credentialId = nonEmpty(env.LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_ID);
  if (credentialId !== undefined) {
    const secret = nonEmpty(env.LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_SECRET);
    if (secret === undefined) throw new ConfigError('LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_SECRET', 'required with LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_ID');
    return { kind: 'application-credential', id: credentialId, secret };
  }
  const username = nonEmpty(env.LEDGER_KEYSTONE_USERNAME);
  const password = nonEmpty(env.LEDGER_KEYSTONE_PASSWORD);
  if (username === undefined || password === undefined) {
    throw new ConfigError(
      username === undefined ? 'LEDGER_KEYSTONE_USERNAME' : 'LEDGER_KEYSTONE_PASSWORD',
      'the ledger needs its own Keystone credentials: LEDGER_KEYSTONE_USERNAME and LEDGER_KEYSTONE_PASSWORD, or LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_ID and _SECRET',
    );
  }
  return {
    kind: 'password',
    username,
    password,
    userDomainName: nonEmpty(env.LEDGER_KEYSTONE_USER_DOMAIN_NAME) ?? 'Default',
    projectName: nonEmpty(env.LEDGER_KEYSTONE_PROJECT_NAME) ?? 'service',
    projectDomainName: nonEmpty(env.LEDGER_KEYSTONE_PROJECT_DOMAIN_NAME) ?? 'Default',
  };
}
