import { loadAuthConfig } from './keystone-config';

const KEYSTONE = { LEDGER_KEYSTONE_URL: 'http://keystone:5000/v3/', LEDGER_KEYSTONE_USERNAME: 'ledger', LEDGER_KEYSTONE_PASSWORD: 'pw' };

describe('loadAuthConfig', () => {
  it("accepts the ledger's own tokens by default, with no Keystone", () => {
    expect(loadAuthConfig({})).toEqual({ mode: 'ledger', acceptLedgerTokens: true });
  });

  it("reads Keystone mode with a service user's password and keystonemiddleware's defaults", () => {
    expect(loadAuthConfig({ LEDGER_AUTH: 'keystone', ...KEYSTONE })).toEqual({
      mode: 'keystone',
      acceptLedgerTokens: true,
      keystone: {
        authUrl: 'http://keystone:5000/v3',
        credentials: { kind: 'password', username: 'ledger', password: 'pw', userDomainName: 'Default', projectName: 'service', projectDomainName: 'Default' },
        interface: 'public',
        serviceTokenRoles: ['service'],
        tokenCacheSeconds: 60,
        tokenCacheSize: 10_000,
        timeoutMs: 5_000,
      },
    });
  });

  it('takes an application credential, an interface, a region and service roles', () => {
    const config = loadAuthConfig({
      LEDGER_AUTH: 'keystone',
      LEDGER_KEYSTONE_URL: 'http://keystone:5000/v3',
      LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_ID: 'ac-1',
      LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_SECRET: 's3cret',
      LEDGER_KEYSTONE_INTERFACE: 'internal',
      LEDGER_KEYSTONE_REGION: 'RegionTwo',
      LEDGER_KEYSTONE_SERVICE_TOKEN_ROLES: 'service, Nova_Service',
      LEDGER_AUTH_ACCEPT_LEDGER_TOKENS: 'false',
    });
    expect(config.acceptLedgerTokens).toBe(false);
    expect(config.keystone).toMatchObject({
      credentials: { kind: 'application-credential', id: 'ac-1', secret: 's3cret' },
      interface: 'internal',
      region: 'RegionTwo',
      serviceTokenRoles: ['service', 'nova_service'],
    });
  });

  it('signs in to Keystone for outbound calls only, when the URL is set without LEDGER_AUTH=keystone', () => {
    expect(loadAuthConfig(KEYSTONE)).toMatchObject({ mode: 'ledger', keystone: { authUrl: 'http://keystone:5000/v3' } });
  });

  it.each([
    [{ LEDGER_AUTH: 'kerberos' }, 'LEDGER_AUTH: "kerberos" is not one of ledger, keystone'],
    [{ LEDGER_AUTH: 'keystone' }, 'LEDGER_KEYSTONE_URL: required when LEDGER_AUTH=keystone'],
    [{ LEDGER_KEYSTONE_URL: 'http://keystone:5000/v3' }, 'LEDGER_KEYSTONE_USERNAME'],
    [{ ...KEYSTONE, LEDGER_KEYSTONE_PASSWORD: '' }, 'LEDGER_KEYSTONE_PASSWORD'],
    [{ LEDGER_KEYSTONE_URL: 'http://k/v3', LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_ID: 'ac-1' }, 'LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_SECRET'],
    [{ ...KEYSTONE, LEDGER_KEYSTONE_INTERFACE: 'private' }, 'LEDGER_KEYSTONE_INTERFACE'],
    [{ ...KEYSTONE, LEDGER_KEYSTONE_TOKEN_CACHE_SECONDS: '0' }, 'LEDGER_KEYSTONE_TOKEN_CACHE_SECONDS'],
    [{ LEDGER_KEYSTONE_URL: 'keystone:5000' }, 'LEDGER_KEYSTONE_URL'],
  ])('refuses %j, naming the setting', (env, message) => {
    expect(() => loadAuthConfig(env)).toThrow(message);
  });
});
