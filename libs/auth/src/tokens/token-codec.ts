import { createHmac, timingSafeEqual } from 'node:crypto';
import { uuidV7 } from '@ledger/kernel';
import { expiredToken, invalidToken } from '../domain/auth-errors';
import { isKnownRole, type Principal } from '../domain/principal';

/** What a token says, beyond the principal: when it was issued and until when it holds. */
export interface TokenClaims extends Principal {
  readonly issuedAt: number;
  readonly expiresAt?: number;
  readonly tokenId: string;
}

interface JwtPayload {
  sub: string;
  project: string | null;
  roles: string[];
  host?: string;
  iat: number;
  exp?: number;
  jti: string;
}

/** Verified tokens kept (oldest dropped first): a fleet's agents plus its services and users. */
const VERIFIED_CAPACITY = 20_000;

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

/** Whether a token has the ledger's form (a JWT with its header): Keystone's fernet tokens never do. */
export const looksLikeLedgerToken = (token: string): boolean => token.startsWith(`${HEADER}.`);

/**
 * Signed tokens in the JWT compact form (HS256), so any JWT tool can read
 * them. Sent as `X-Auth-Token`, which is what OpenStack clients send with
 * `--os-auth-type admin_token --os-token TOKEN`.
 */
export class TokenCodec {
  private readonly key: Buffer;
  /**
   * Tokens already verified (a token is immutable and signed, so its claims
   * do not change): every request of a busy client would otherwise pay an
   * HMAC and a JSON parse again. Expiry is still checked on each use.
   */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(secret: string) {
    this.key = Buffer.from(secret, 'utf8');
  }

  issue(principal: Principal, options: { nowSeconds?: number; ttlSeconds?: number } = {}): string {
    const iat = options.nowSeconds ?? Math.floor(Date.now() / 1000);
    const payload: JwtPayload = {
      sub: principal.user,
      project: principal.project,
      roles: [...principal.roles],
      ...(principal.host !== undefined ? { host: principal.host } : {}),
      iat,
      ...(options.ttlSeconds !== undefined ? { exp: iat + options.ttlSeconds } : {}),
      jti: uuidV7(),
    };
    const body = `${HEADER}.${base64url(JSON.stringify(payload))}`;
    return `${body}.${this.sign(body)}`;
  }

  verify(token: string, nowSeconds = Math.floor(Date.now() / 1000)): TokenClaims {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt !== undefined && known.expiresAt <= nowSeconds) throw expiredToken();
      return known;
    }
    const claims = this.verifyUncached(token, nowSeconds);
    if (this.verified.size >= VERIFIED_CAPACITY) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, claims);
    return claims;
  }

  private verifyUncached(token: string, nowSeconds: number): TokenClaims {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== HEADER) throw invalidToken('not a ledger token');
    const expected = Buffer.from(this.sign(`${parts[0]}.${parts[1]}`));
    const given = Buffer.from(parts[2]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidToken('bad signature');
    let payload: JwtPayload;
    try {
      payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as JwtPayload;
    } catch {
      throw invalidToken('unreadable payload');
    }
    if (typeof payload.sub !== 'string' || !Array.isArray(payload.roles)) throw invalidToken('missing claims');
    if (payload.exp !== undefined && payload.exp <= nowSeconds) throw expiredToken();
    const roles = payload.roles.filter(isKnownRole);
    return {
      user: payload.sub,
      project: payload.project ?? null,
      roles,
      ...(payload.host !== undefined ? { host: payload.host } : {}),
      issuedAt: payload.iat,
      expiresAt: payload.exp,
      tokenId: payload.jti,
    };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
