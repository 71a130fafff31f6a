import { TokenCodec } from './token-codec';

describe('TokenCodec', () => {
  const codec = new TokenCodec('x'.repeat(32));

  it('round-trips the principal', () => {
    const token = codec.issue({ user: 'alice', project: 'p1', roles: ['member', 'reader'] });
    expect(codec.verify(token)).toMatchObject({ user: 'alice', project: 'p1', roles: ['member', 'reader'] });
  });

  it('carries the host of an agent credential', () => {
    const token = codec.issue({ user: 'agent:h1', project: null, roles: ['agent'], host: 'h1' });
    expect(codec.verify(token)).toMatchObject({ roles: ['agent'], host: 'h1' });
  });

  it('refuses a token signed with another key', () => {
    const foreign = new TokenCodec('y'.repeat(32)).issue({ user: 'mallory', project: 'p1', roles: ['admin'] });
    expect(() => codec.verify(foreign)).toThrow(expect.objectContaining({ code: 'AUTH.TOKEN_INVALID' }));
  });

  it('refuses a token whose payload was edited', () => {
    const [header, , signature] = codec.issue({ user: 'bob', project: 'p1', roles: ['reader'] }).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'bob', project: 'p1', roles: ['admin'], iat: 1, jti: 'x' })).toString('base64url');
    expect(() => codec.verify(`${header}.${forged}.${signature}`)).toThrow(expect.objectContaining({ code: 'AUTH.TOKEN_INVALID' }));
  });

  it('refuses an expired token', () => {
    const token = codec.issue({ user: 'carol', project: 'p1', roles: ['reader'] }, { nowSeconds: 1000, ttlSeconds: 60 });
    expect(codec.verify(token, 1059).user).toBe('carol');
    expect(() => codec.verify(token, 1060)).toThrow(expect.objectContaining({ code: 'AUTH.TOKEN_EXPIRED' }));
  });

  it('drops roles it does not know', () => {
    const token = codec.issue({ user: 'dave', project: 'p1', roles: ['reader', 'superuser' as never] });
    expect(codec.verify(token).roles).toEqual(['reader']);
  });

  it('refuses garbage', () => {
    expect(() => codec.verify('not-a-token')).toThrow(expect.objectContaining({ code: 'AUTH.TOKEN_INVALID' }));
  });
});
