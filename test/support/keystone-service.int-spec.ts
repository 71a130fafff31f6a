import { startKeystoneService, type KeystoneService, keystoneMissing } from './keystone-service';
import { describeWithService, postgresUnavailable, postgresUrl } from './services';

const describeKeystone = describeWithService('Keystone (python3-keystone on PostgreSQL)', keystoneMissing() ?? postgresUnavailable());

describeKeystone('the test Keystone', () => {
  let keystone: KeystoneService;
  beforeAll(async () => {
    keystone = await startKeystoneService({ postgresUrl: postgresUrl() });
  }, 120_000);
  afterAll(() => keystone?.dispose());

  it('makes users with roles in projects, issues their tokens and revokes them', async () => {
    const admin = await keystone.admin();
    const project = await admin.createProject('harness-project');
    const userId = await admin.userWithRoles('harness-user', 'pw', project, ['member']);
    const issued = await admin.issue({ user: 'harness-user', password: 'pw', project: 'harness-project' });
    expect(issued).toMatchObject({ userId, projectId: project });
    // Keystone expands implied roles into the token: member implies reader.
    expect([...issued.roles].sort()).toEqual(['member', 'reader']);

    const { token: adminToken } = await admin.issue({ user: 'admin', password: keystone.adminPassword, project: 'admin' });
    const validate = () => fetch(`${keystone.url}/auth/tokens`, { headers: { 'x-auth-token': adminToken, 'x-subject-token': issued.token } });
    expect((await validate()).status).toBe(200);
    await admin.revoke(issued.token);
    expect((await validate()).status).toBe(404);
  });

  it('comes back with the same users after a restart', async () => {
    const admin = await keystone.admin();
    await admin.userWithRoles('survivor', 'pw', await admin.createProject('survivors'), ['reader']);
    await keystone.stop();
    await expect(fetch(keystone.url)).rejects.toThrow();
    await keystone.start();
    await expect(admin.issue({ user: 'survivor', password: 'pw', project: 'survivors' })).resolves.toMatchObject({ roles: ['reader'] });
  });
});
