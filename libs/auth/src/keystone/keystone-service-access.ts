import type { ServiceEndpoint } from '@ledger/config';
import { fixedServiceAccess, type ServiceAccess } from '@ledger/kernel';
import type { KeystoneSession } from './keystone-session';

/**
 * Another OpenStack service reached as keystoneauth's adapter reaches it:
 * the ledger's own token from the session, the URL from the catalog unless
 * one is set. A refused token is dropped, so the next call authenticates
 * again (the token was revoked, or Keystone's keys rotated under it).
 */
export class KeystoneServiceAccess implements ServiceAccess {
  constructor(
    private readonly session: KeystoneSession,
    private readonly serviceType: string,
    private readonly explicitUrl?: string,
  ) {}

  url(): Promise<string> {
    return this.explicitUrl !== undefined ? Promise.resolve(this.explicitUrl.replace(/\/+$/, '')) : this.session.endpoint(this.serviceType);
  }

  token(): Promise<string> {
    return this.session.token();
  }

  refused(token: string): boolean {
    this.session.invalidate(token);
    return true;
  }
}

/** The access a configured endpoint describes: its settings, or the ledger's Keystone session (which LEDGER_KEYSTONE_URL makes). */
export function serviceAccess(endpoint: ServiceEndpoint, session: KeystoneSession | null): ServiceAccess {
  if (endpoint.via === 'settings') return fixedServiceAccess(endpoint.url, endpoint.token);
  if (!session) throw new Error(`${endpoint.serviceType} is to be reached through Keystone, but the ledger has no Keystone session (LEDGER_KEYSTONE_URL is unset)`);
  return new KeystoneServiceAccess(session, endpoint.serviceType, endpoint.url);
}
