import { HttpNovaEvents } from '@ledger/allocation';
import { KeystoneServiceAccess, KeystoneSession, serviceAccess } from '@ledger/auth';
import { type LedgerConfig, loadLedgerConfig } from '@ledger/config';
import { HttpPlacementApi } from '@ledger/placement';
import { createPlacementReconciler } from '@ledger/placement/nest';
import { openSqliteSqlDatabase, ReactorUnavailableError, type SqlDatabase } from '@ledger/processing';
import { capturingLogger } from '@ledger/processing/testing';
import { desiredDevice, desiredHost } from '../../../../libs/placement/src/testing/desired-placement-fixtures';
import { InMemoryDesiredPlacementSource } from '../../../../libs/placement/src/testing/in-memory-desired-placement-source';
import { createApplicationCredential, type KeystoneAdmin } from '../../../../test/support/keystone-admin';
import { type KeystoneService, keystoneMissing, startKeystoneService } from '../../../../test/support/keystone-service';
import { type NovaSink, startNovaSink } from '../../../../test/support/nova-sink';
import { PLACEMENT_KEYSTONE_USER, type PlacementService, placementMissing, placementWithKeystone, startPlacementService } from '../../../../test/support/placement-service';
import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../test/support/services';

const describeKeystone = describeWithService('Keystone (python3-keystone on PostgreSQL) and Placement', keystoneMissing() ?? placementMissing() ?? postgresUnavailable());

const LEDGER_USER = { user: 'ledger', password: 'ledger-pw', project: 'service' } as const;
const INSTANCE = '11111111-2222-4333-8444-000000000001';
const ARQ = '0196b3c2-0000-7000-8000-000000000001';

describeKeystone('the ledger as a Keystone client of Placement and Nova', () => {
  let keystone: KeystoneService;
  let admin: KeystoneAdmin;
  let placement: PlacementService;
  let nova: NovaSink;
  let db: SqlDatabase;
  let config: LedgerConfig;

  const sessionOf = (settings: LedgerConfig, overrides: Partial<ConstructorParameters<typeof KeystoneSession>[0]> = {}) =>
    new KeystoneSession({ authUrl: settings.auth.keystone!.authUrl, credentials: settings.auth.keystone!.credentials, ...overrides });

  beforeAll(async () => {
    keystone = await startKeystoneService({ postgresUrl: postgresUrl() });
    admin = await keystone.admin();
    const service = await admin.createProject('service');
    // Placement's policy wants admin (service on newer releases); Keystone lets a service validate tokens.
    await admin.userWithRoles(PLACEMENT_KEYSTONE_USER.user, PLACEMENT_KEYSTONE_USER.password, service, ['admin', 'service']);
    await admin.userWithRoles(LEDGER_USER.user, LEDGER_USER.password, service, ['admin', 'service']);
    placement = await startPlacementService({ config: placementWithKeystone(keystone.url) });
    await admin.registerService('placement', 'placement', placement.url);
    nova = await startNovaSink({ authorize: async (token) => token !== undefined && (await admin.isValid(token)) });
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    config = loadLedgerConfig({
      LEDGER_KEYSTONE_URL: keystone.url,
      LEDGER_KEYSTONE_USERNAME: LEDGER_USER.user,
      LEDGER_KEYSTONE_PASSWORD: LEDGER_USER.password,
      LEDGER_PLACEMENT_CREATE_COMPUTE_NODES: 'true',
      LEDGER_PLACEMENT_TOKEN: 'admin',
      LEDGER_NOVA_TOKEN: 'not-a-keystone-token',
    });
  }, 180_000);

  afterAll(async () => {
    await db?.close();
    await nova?.close();
    await placement?.dispose();
    await keystone?.dispose();
  });

  it("syncs hosts into the catalog's Placement with its own token, and re-authenticates when Placement refuses a revoked one", async () => {
    const session = sessionOf(config);
    const invalidate = jest.spyOn(session, 'invalidate');
    const source = new InMemoryDesiredPlacementSource();
    const log = capturingLogger();
    const reconciler = createPlacementReconciler(config, db, source, session, log)!;
    expect(log.lines[0]).toContain("Placement reconciler on: the Keystone catalog's placement endpoint with the ledger's Keystone token (LEDGER_PLACEMENT_TOKEN is not used)");

    source.set(desiredHost('a.example.org', 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));
    expect((await reconciler.reconcileAll()).byState['in-sync']).toBe(1);
    const revoked = await session.token();
    await admin.revoke(revoked);

    source.set(desiredHost('b.example.org', 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));
    const after = await reconciler.reconcileAll();

    expect(after.byState['in-sync']).toBe(2);
    expect(invalidate).toHaveBeenCalledWith(revoked);
    const renewed = await session.token();
    expect(renewed).not.toBe(revoked);
    const api = new HttpPlacementApi({ access: new KeystoneServiceAccess(session, 'placement') });
    expect(await api.getProvider(desiredDevice('b.example.org', { pciAddress: '0000:5e:00.0' }).uuid)).toBeDefined();
  });

  it('reports Placement unavailable, saying why, while the catalog has no endpoint for it', async () => {
    const session = sessionOf(config, { interface: 'internal' });
    const source = new InMemoryDesiredPlacementSource();
    const reconciler = createPlacementReconciler(config, db, source, session, capturingLogger())!;
    source.set(desiredHost('c.example.org', 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));

    expect((await reconciler.reconcileAll()).byState['placement-unavailable']).toBe(1);
    expect(await reconciler.hostStatus('c.example.org')).toMatchObject({
      state: 'placement-unavailable',
      detail: expect.stringContaining('the service catalog has no internal endpoint for service type placement'),
    });
  });

  it("tells the catalog's Nova, once registered, with a token Keystone validates, and with a fresh one once that is revoked", async () => {
    const bound = [{ instanceUuid: INSTANCE, arqUuid: ARQ, status: 'completed' as const }];
    let now = Date.now();
    const session = sessionOf(config, { now: () => now });
    const notifier = new HttpNovaEvents({ access: serviceAccess(config.nova!, session) });
    const unavailable = notifier.acceleratorRequestsBound(bound, { key: 'before-compute' });
    await expect(unavailable).rejects.toBeInstanceOf(ReactorUnavailableError);
    await expect(unavailable).rejects.toThrow('Nova unreachable: the service catalog has no public endpoint for service type compute');

    // Registered after the ledger read its catalog: found once that catalog is a minute old.
    await admin.registerService('compute', 'nova', nova.url);
    await expect(notifier.acceleratorRequestsBound(bound, { key: 'too-soon' })).rejects.toBeInstanceOf(ReactorUnavailableError);
    now += 60_000;
    await notifier.acceleratorRequestsBound(bound, { key: 'first' });
    const first = nova.requests.at(-1)!.headers['x-auth-token'] as string;
    expect(first).toBe(await session.token());

    await admin.revoke(first);
    await notifier.acceleratorRequestsBound(bound, { key: 'second' });

    expect(nova.deliveries.map((delivery) => delivery.requestId)).toEqual(['req-first', 'req-second']);
    const [refused, accepted] = nova.requests.slice(-2).map((request) => request.headers['x-auth-token']);
    expect(refused).toBe(first);
    expect(accepted).not.toBe(first);
    expect(await admin.isValid(accepted as string)).toBe(true);
  });

  it('authenticates with an application credential as well as with a password', async () => {
    const credential = await createApplicationCredential(keystone.url, LEDGER_USER, 'ledger-outbound');
    const appConfig = loadLedgerConfig({ LEDGER_KEYSTONE_URL: keystone.url, LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_ID: credential.id, LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_SECRET: credential.secret });
    const session = sessionOf(appConfig);

    expect(await admin.isValid(await session.token())).toBe(true);
    const api = new HttpPlacementApi({ access: serviceAccess(appConfig.placement.endpoint!, session) });
    await expect(api.listProviders({ required: ['OWNER_CYBORG'] })).resolves.toEqual(expect.any(Array));
  });

  it('renews its token before it expires, and keeps it until then', async () => {
    let now = Date.now();
    const session = sessionOf(config, { now: () => now });
    const first = await session.token();

    // Keystone's tokens live an hour: renewed two minutes before the end (a short-lived one with a quarter of its life left).
    now += 57 * 60_000;
    expect(await session.token()).toBe(first);
    now += 60_000;
    const renewed = await session.token();

    expect(renewed).not.toBe(first);
    expect(await admin.isValid(renewed)).toBe(true);
    expect(await admin.isValid(first)).toBe(true);
  });
});
