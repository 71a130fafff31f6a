import { createServer } from 'node:net';
import { KeystoneSession } from './keystone-session';
import { KeystoneServiceAccess, serviceAccess } from './keystone-service-access';

const credentials = { kind: 'password', username: 'ledger', password: 'pw', userDomainName: 'Default', projectName: 'service', projectDomainName: 'Default' } as const;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('serviceAccess', () => {
  const session = new KeystoneSession({ authUrl: 'http://127.0.0.1:5000/v3', credentials });

  it('calls with the URL and token settings outside Keystone mode, and never retries a refused token', async () => {
    const access = serviceAccess({ via: 'settings', url: 'http://placement:8778', token: 'admin' }, null);
    expect([await access.url(), await access.token(), access.refused('admin')]).toEqual(['http://placement:8778', 'admin', false]);
  });

  it('in Keystone mode, lets an explicit URL win over the catalog', async () => {
    expect(await serviceAccess({ via: 'keystone', serviceType: 'placement', url: 'http://placement:8778/' }, session).url()).toBe('http://placement:8778');
  });

  it('drops a refused token from the session, so the next call authenticates again', () => {
    const invalidate = jest.spyOn(session, 'invalidate');
    expect(new KeystoneServiceAccess(session, 'compute').refused('revoked')).toBe(true);
    expect(invalidate).toHaveBeenCalledWith('revoked');
  });

  it('refuses a Keystone endpoint without a session: the configuration made none', () => {
    expect(() => serviceAccess({ via: 'keystone', serviceType: 'compute' }, null)).toThrow('LEDGER_KEYSTONE_URL is unset');
  });

  it('says Keystone is unavailable, and what for, when it does not answer', async () => {
    const unreachable = new KeystoneSession({ authUrl: `http://127.0.0.1:${await closedPort()}/v3`, credentials, timeoutMs: 2000 });
    const access = new KeystoneServiceAccess(unreachable, 'placement');
    await expect(access.url()).rejects.toMatchObject({ code: 'AUTH.IDENTITY_UNAVAILABLE', message: 'Keystone is unavailable (authenticating the ledger: ECONNREFUSED); retry' });
    await expect(access.token()).rejects.toMatchObject({ code: 'AUTH.IDENTITY_UNAVAILABLE' });
  });
});
