import { isLedgerError } from '@ledger/kernel';
import type { KeystoneAdmin } from '../../../../test/support/keystone-admin';
import { keystoneMissing, type KeystoneService, startKeystoneService } from '../../../../test/support/keystone-service';
import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../test/support/services';
import { KeystoneSession } from './keystone-session';
import { KeystoneTokens } from './keystone-tokens';

const describeKeystone = describeWithService('Keystone (python3-keystone on PostgreSQL)', keystoneMissing() ?? postgresUnavailable());

/** The code a refused verification threw. */
async function refusal(verifying: Promise<unknown>): Promise<string> {
  try {
    await verifying;
  } catch (error) {
    if (isLedgerError(error)) return `${error.status} ${error.code}`;
    throw error;
  }
  throw new Error('the token was accepted');
}

describeKeystone('KeystoneTokens against a real Keystone', () => {
  let keystone: KeystoneService;
  let admin: KeystoneAdmin;
  let projectId: string;
  let clock: number;
  let session: KeystoneSession;
  const tokens = (overrides: { revalidateSeconds?: number; cacheSize?: number } = {}) =>
    new KeystoneTokens({ session, serviceTokenRoles: ['service'], revalidateSeconds: 60, cacheSize: 100, timeoutMs: 2_000, now: () => clock, ...overrides });
  const userToken = async () => (await admin.issue({ user: 'alice', password: 'alice-pw', project: 'tenant-a' })).token;

  beforeAll(async () => {
    keystone = await startKeystoneService({ postgresUrl: postgresUrl() });
    admin = await keystone.admin();
    const service = await admin.createProject('service');
    await admin.userWithRoles('ledger', 'ledger-pw', service, ['service']);
    projectId = await admin.createProject('tenant-a');
    await admin.userWithRoles('alice', 'alice-pw', projectId, ['member']);
    session = new KeystoneSession({
      authUrl: keystone.url,
      credentials: { kind: 'password', username: 'ledger', password: 'ledger-pw', userDomainName: 'Default', projectName: 'service', projectDomainName: 'Default' },
    });
  }, 120_000);
  afterAll(() => keystone?.dispose());
  beforeEach(() => {
    clock = Date.now();
  });

  it("gives the token's user, project and roles, implied ones included", async () => {
    const principal = await tokens().verify(await userToken());
    expect(principal).toEqual({
      user: expect.stringMatching(/^[0-9a-f]{32}$/),
      project: projectId,
      roles: expect.arrayContaining(['member', 'reader']),
      userDomain: 'default',
      projectDomain: 'default',
    });
  });

  it('refuses a token Keystone never issued', async () => {
    expect(await refusal(tokens().verify('gAAAAABnot-a-real-fernet-token'))).toBe('401 AUTH.TOKEN_INVALID');
  });

  it('honours a revocation once the revalidation interval has passed, not before', async () => {
    const validator = tokens({ revalidateSeconds: 30 });
    const token = await userToken();
    await validator.verify(token);
    await admin.revoke(token);
    // Within the interval the cached validation stands: that is the price of not asking Keystone on every request.
    clock += 29_000;
    await expect(validator.verify(token)).resolves.toMatchObject({ project: projectId });
    clock += 2_000;
    expect(await refusal(validator.verify(token))).toBe('401 AUTH.TOKEN_INVALID');
  });

  it("refuses a token past its expiry from the cache, without asking Keystone", async () => {
    const validator = tokens({ revalidateSeconds: 3600 });
    const issued = await admin.issue({ user: 'alice', password: 'alice-pw', project: 'tenant-a' });
    await validator.verify(issued.token);
    clock = issued.expiresAt.getTime();
    expect(await refusal(validator.verify(issued.token))).toBe('401 AUTH.TOKEN_EXPIRED');
  });

  it('answers 503 when Keystone is down and a validation is due, and recovers when it is back', async () => {
    const validator = tokens({ revalidateSeconds: 10 });
    const token = await userToken();
    await validator.verify(token);
    await keystone.stop();
    try {
      // Still inside the interval: the cached validation answers without Keystone.
      await expect(validator.verify(token)).resolves.toMatchObject({ project: projectId });
      clock += 11_000;
      expect(await refusal(validator.verify(token))).toBe('503 AUTH.IDENTITY_UNAVAILABLE');
      expect(await refusal(validator.verify('gAAAAABnever-seen'))).toBe('503 AUTH.IDENTITY_UNAVAILABLE');
    } finally {
      await keystone.start();
    }
    await expect(validator.verify(token)).resolves.toMatchObject({ project: projectId });
  });

  it('keeps at most cacheSize validations', async () => {
    const validator = tokens({ cacheSize: 2 });
    for (let i = 0; i < 4; i++) await validator.verify(await userToken());
    expect(validator.size).toBe(2);
  });

  it('asks Keystone once for a token that many requests carry at the same time', async () => {
    const validator = tokens();
    const token = await userToken();
    const calls: string[] = [];
    const realFetch = global.fetch;
    global.fetch = ((input: string, init?: RequestInit) => {
      if (String(input).includes('/auth/tokens') && init?.method === 'GET') calls.push(String(input));
      return realFetch(input, init);
    }) as typeof fetch;
    try {
      await Promise.all(Array.from({ length: 20 }, () => validator.verify(token)));
    } finally {
      global.fetch = realFetch;
    }
    expect(calls).toHaveLength(1);
  });
});
