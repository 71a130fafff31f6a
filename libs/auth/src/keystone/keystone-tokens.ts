import { expiredToken, invalidToken } from '../domain/auth-errors';
import type { Principal } from '../domain/principal';
import type { ExternalTokens } from '../nest/auth.options';
import { identityUnavailable } from './keystone-errors';
import { keystoneCall, keystoneMessage } from './keystone-http';
import type { KeystoneSession } from './keystone-session';

export interface KeystoneTokensOptions {
  /** The ledger's own session: its token is the X-Auth-Token of every validation, as keystonemiddleware's is. */
  readonly session: KeystoneSession;
  /** Roles of which an X-Service-Token must carry one (keystonemiddleware's `service_token_roles`). */
  readonly serviceTokenRoles: readonly string[];
  /** How long a validation is trusted before Keystone is asked again: a revoked token is refused within this. */
  readonly revalidateSeconds: number;
  /** Validations kept; the least recently validated goes first. */
  readonly cacheSize: number;
  readonly timeoutMs: number;
  readonly now?: () => number;
}

type Validation =
  | { readonly valid: true; readonly principal: Principal; readonly expiresAt: number; readonly checkedAt: number }
  | { readonly valid: false; readonly why: string };

interface WireToken {
  readonly expires_at: string;
  readonly user: { readonly id: string; readonly domain?: { readonly id: string } };
  readonly project?: { readonly id: string; readonly domain?: { readonly id: string } };
  readonly roles?: readonly { readonly name: string }[];
}

/**
 * Keystone's tokens, checked as keystonemiddleware checks them: `GET
 * /v3/auth/tokens` with the token in X-Subject-Token and the ledger's own in
 * X-Auth-Token, which gives the user, the project and the roles (Keystone
 * has already added the implied ones). A validation is kept until the token
 * expires or `revalidateSeconds` pass, whichever comes first, so a busy
 * client costs one Map lookup per request and a revoked token stops working
 * within that interval. A token Keystone refused stays refused (a revoked or
 * expired token never comes back). When Keystone cannot answer, the request
 * is refused with 503: a stale validation is never stretched.
 */
export class KeystoneTokens implements ExternalTokens {
  readonly serviceTokenRoles: readonly string[];
  private readonly cache = new Map<string, Validation>();
  private readonly inFlight = new Map<string, Promise<Validation>>();
  private readonly now: () => number;
  private readonly revalidateMs: number;

  constructor(private readonly options: KeystoneTokensOptions) {
    this.serviceTokenRoles = options.serviceTokenRoles;
    this.now = options.now ?? Date.now;
    this.revalidateMs = options.revalidateSeconds * 1000;
  }

  async verify(token: string): Promise<Principal> {
    const cached = this.cache.get(token);
    if (cached !== undefined) {
      if (!cached.valid) throw invalidToken(cached.why);
      const now = this.now();
      if (now >= cached.expiresAt) {
        this.cache.set(token, { valid: false, why: 'it expired' });
        throw expiredToken();
      }
      if (now < cached.checkedAt + this.revalidateMs) return cached.principal;
    }
    const validation = await this.validateOnce(token);
    if (!validation.valid) throw invalidToken(validation.why);
    return validation.principal;
  }

  /** Validations held now (for the tests and the metrics). */
  get size(): number {
    return this.cache.size;
  }

  /** One request to Keystone per token, however many requests carrying it arrive meanwhile. */
  private validateOnce(token: string): Promise<Validation> {
    let pending = this.inFlight.get(token);
    if (pending === undefined) {
      pending = this.validate(token).finally(() => this.inFlight.delete(token));
      this.inFlight.set(token, pending);
    }
    return pending;
  }

  private async validate(token: string, retried = false): Promise<Validation> {
    const serviceToken = await this.options.session.token();
    const reply = await keystoneCall(`${this.options.session.authUrl}/auth/tokens?nocatalog`, {
      method: 'GET',
      headers: { 'x-auth-token': serviceToken, 'x-subject-token': token },
      timeoutMs: this.options.timeoutMs,
      purpose: 'validating a token',
    });
    if (reply.status === 401 && !retried) {
      // The ledger's own token was refused (revoked, or Keystone's keys rotated): authenticate again, once.
      this.options.session.invalidate(serviceToken);
      return this.validate(token, true);
    }
    if (reply.status === 404) return this.remember(token, { valid: false, why: 'Keystone does not know it (revoked, expired or never issued)' });
    if (reply.status !== 200) throw identityUnavailable(`validating a token: ${keystoneMessage(reply)}`);
    const wire = (reply.body as { token: WireToken }).token;
    const expiresAt = Date.parse(wire.expires_at);
    if (!(expiresAt > this.now())) return this.remember(token, { valid: false, why: 'it expired' });
    const principal: Principal = {
      user: wire.user.id,
      project: wire.project?.id ?? null,
      // oslo.policy compares role names without case.
      roles: (wire.roles ?? []).map((role) => role.name.toLowerCase()),
      ...(wire.user.domain ? { userDomain: wire.user.domain.id } : {}),
      ...(wire.project?.domain ? { projectDomain: wire.project.domain.id } : {}),
    };
    return this.remember(token, { valid: true, principal, expiresAt, checkedAt: this.now() });
  }

  private remember(token: string, validation: Validation): Validation {
    this.cache.delete(token);
    this.cache.set(token, validation);
    if (this.cache.size > this.options.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    return validation;
  }
}
