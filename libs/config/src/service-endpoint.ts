import { type Env, nonEmpty, urlSetting } from './env-values';

/**
 * How the ledger reaches another OpenStack service (Placement, Nova):
 * - `settings`: at its URL setting, with its token setting (if any) as X-Auth-Token;
 * - `keystone` (LEDGER_KEYSTONE_URL is set): with the ledger's own Keystone
 *   token, at the URL setting when it is set, else at the catalog's endpoint
 *   of `serviceType` (for LEDGER_KEYSTONE_INTERFACE and _REGION). The token
 *   setting is not used then.
 */
export type ServiceEndpoint =
  | { readonly via: 'settings'; readonly url: string; readonly token?: string }
  | { readonly via: 'keystone'; readonly serviceType: string; readonly url?: string };

export interface ServiceEndpointSettings {
  /** The catalog's service type: `placement`, `compute`. */
  readonly serviceType: string;
  /** The URL setting's name: LEDGER_PLACEMENT_URL. */
  readonly urlSetting: string;
  /** The token setting's name: LEDGER_PLACEMENT_TOKEN. */
  readonly tokenSetting: string;
  /** The token sent when the setting is unset (outside Keystone mode). */
  readonly defaultToken?: string;
}

/** The service's endpoint from its settings, or undefined when it is not to be called (no URL, no Keystone). */
export function loadServiceEndpoint(env: Env, keystone: boolean, settings: ServiceEndpointSettings): ServiceEndpoint | undefined {
  const url = urlSetting(env, settings.urlSetting);
  if (keystone) return { via: 'keystone', serviceType: settings.serviceType, ...(url !== undefined ? { url } : {}) };
  if (url === undefined) return undefined;
  const token = nonEmpty(env[settings.tokenSetting]) ?? settings.defaultToken;
  return { via: 'settings', url, ...(token !== undefined ? { token } : {}) };
}

/** For the start-up log: where the calls go and with which token. */
export function describeServiceEndpoint(endpoint: ServiceEndpoint, tokenSetting: string): string {
  if (endpoint.via === 'settings') return endpoint.url;
  const where = endpoint.url ?? `the Keystone catalog's ${endpoint.serviceType} endpoint`;
  return `${where} with the ledger's Keystone token (${tokenSetting} is not used)`;
}
