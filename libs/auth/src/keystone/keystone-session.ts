import type { KeystoneClientCredentials } from '@ledger/config';
import { keystoneCall, keystoneMessage } from './keystone-http';
import { identityUnavailable, ledgerCredentialsRefused, noEndpointInCatalog } from './keystone-errors';

export interface KeystoneSessionOptions {
  /** The identity endpoint, e.g. http://keystone:5000/v3. */
  readonly authUrl: string;
  readonly credentials: KeystoneClientCredentials;
  /** Endpoint interface read from the catalog: public (default), internal or admin. */
  readonly interface?: string;
  /** Region of the endpoints read from the catalog; absent: the first that matches. */
  readonly region?: string;
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

interface CatalogEntry {
  readonly type: string;
  readonly endpoints: readonly { readonly interface: string; readonly region_id?: string; readonly region?: string; readonly url: string }[];
}

interface HeldToken {
  readonly token: string;
  /** Its lifetime, on Keystone's clock (expires_at − issued_at). */
  readonly lifeMs: number;
  /** When it expires on the ledger's clock: issued now, for its lifetime, so clock skew between the two does not matter. */
  readonly expiresAt: number;
  readonly catalog: readonly CatalogEntry[];
}

const DEFAULT_TIMEOUT_MS = 5_000;
/** Renew when this share of a token's life is left (a 20 s token: 5 s before it ends)… */
const RENEW_AT_LIFE_LEFT = 0.25;
/** …or this long before the end, whichever comes later (a 1 h token: 2 min before), so a call in flight does not carry a token that expires under it. */
const RENEW_MARGIN_MAX_MS = 120_000;
/** A catalog that lacks a wanted endpoint is fetched again no more often than this. */
const MISSING_ENDPOINT_RECHECK_MS = 60_000;

/**
 * The ledger as a Keystone client, as keystoneauth's session is for an
 * OpenStack service: it authenticates with its own credentials, keeps the
 * token with its service catalog, renews it before it expires (one request
 * at a time however many callers wait), and finds other services' endpoints
 * in the catalog. `invalidate` drops a token another service refused, so the
 * next call authenticates again.
 */
export class KeystoneSession {
  private held?: HeldToken;
  private renewing?: Promise<HeldToken>;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  readonly authUrl: string;

  constructor(private readonly options: KeystoneSessionOptions) {
    this.authUrl = options.authUrl.replace(/\/+$/, '');
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** A token of the ledger's own, valid for a while yet. */
  async token(): Promise<string> {
    return (await this.current()).token;
  }

  /**
   * The URL of a service's endpoint in the catalog (`placement`, `compute`),
   * or AUTH.NO_CATALOG_ENDPOINT. A catalog without it is read again (by
   * authenticating again) once it is a minute old, so an endpoint
   * registered since is found without waiting for the token's renewal.
   */
  async endpoint(serviceType: string): Promise<string> {
    const iface = this.options.interface ?? 'public';
    let held = await this.current();
    let found = this.findEndpoint(held.catalog, serviceType, iface);
    if (!found && this.now() - (held.expiresAt - held.lifeMs) >= MISSING_ENDPOINT_RECHECK_MS) {
      this.invalidate(held.token);
      held = await this.current();
      found = this.findEndpoint(held.catalog, serviceType, iface);
    }
    if (!found) throw noEndpointInCatalog(serviceType, iface, this.options.region);
    return found.replace(/\/+$/, '');
  }

  private findEndpoint(catalog: readonly CatalogEntry[], serviceType: string, iface: string): string | undefined {
    const entry = catalog.find((candidate) => candidate.type === serviceType);
    return entry?.endpoints.find(
      (endpoint) => endpoint.interface === iface && (this.options.region === undefined || (endpoint.region_id ?? endpoint.region) === this.options.region),
    )?.url;
  }

  /** Forget the token (another service answered 401 to it): the next call authenticates again. */
  invalidate(token: string): void {
    if (this.held?.token === token) this.held = undefined;
  }

  private async current(): Promise<HeldToken> {
    const held = this.held;
    if (held && !this.dueForRenewal(held)) return held;
    this.renewing ??= this.authenticate().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  private dueForRenewal(held: HeldToken): boolean {
    const margin = Math.min(held.lifeMs * RENEW_AT_LIFE_LEFT, RENEW_MARGIN_MAX_MS);
    return this.now() >= held.expiresAt - margin;
  }

  private async authenticate(): Promise<HeldToken> {
    const reply = await keystoneCall(`${this.authUrl}/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth: authBody(this.options.credentials) }),
      timeoutMs: this.timeoutMs,
      purpose: 'authenticating the ledger',
    });
    if (reply.status === 401 || reply.status === 403 || reply.status === 404 || reply.status === 400) {
      throw ledgerCredentialsRefused(this.authUrl, reply.status, keystoneMessage(reply));
    }
    if (reply.status !== 201) throw identityUnavailable(`authenticating the ledger: ${keystoneMessage(reply)}`);
    const body = reply.body as { token: { expires_at: string; issued_at: string; catalog?: CatalogEntry[] } };
    const token = reply.headers.get('x-subject-token');
    if (!token) throw identityUnavailable('Keystone issued no X-Subject-Token');
    const lifeMs = Math.max(0, Date.parse(body.token.expires_at) - Date.parse(body.token.issued_at));
    this.held = { token, lifeMs, expiresAt: this.now() + lifeMs, catalog: body.token.catalog ?? [] };
    return this.held;
  }
}

function authBody(credentials: KeystoneClientCredentials): unknown {
  if (credentials.kind === 'application-credential') {
    return { identity: { methods: ['application_credential'], application_credential: { id: credentials.id, secret: credentials.secret } } };
  }
  return {
    identity: {
      methods: ['password'],
      password: { user: { name: credentials.username, domain: { name: credentials.userDomainName }, password: credentials.password } },
    },
    scope: { project: { name: credentials.projectName, domain: { name: credentials.projectDomainName } } },
  };
}
