import { join } from 'node:path';
import type { EventStore } from '@ledger/eventstore';
import { ARQ_1, ARQ_2, type HeldSlot } from '../../projections/device-history/testing/tenancy-history';
import { recordAuditHistory } from '../support/audit-history';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { ledgerctl } from '../support/ledgerctl-process';

const arqsOf = (tenancies: readonly { arqUuid: string }[]) => tenancies.map((tenancy) => tenancy.arqUuid);

/**
 * A time names the last event recorded at or before it (docs/audit.md),
 * wherever a point of the log is asked for: a tenancy released at position
 * R is held "from" any time after R until the next event, as it is from R.
 */
describe('a time as a point of the log: tenancy ranges and replay labels', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let env: Record<string, string>;
  let slot: HeldSlot;
  let released: number;
  let afterRelease: string;
  let exportFile: string;

  beforeAll(async () => {
    ledger = await startTestLedger();
    env = { LEDGER_DATA_DIR: ledger.config.dataDir, LEDGER_URL: ledger.url };
    ({ store, slot } = await recordAuditHistory(ledger));
    // p2 gives the slot back: the release is the last event of the log, and no event follows it.
    const claim = { deviceUuid: slot.device, deployableUuid: slot.deployable, handleUuid: slot.handle, arqUuid: ARQ_2 };
    const metadata = { correlationId: 'c', causationId: null, actor: { user: 'nova', project: 'service', roles: ['member'] }, schemaVersion: 1 };
    ({ position: released } = await store.append(`device-${slot.device}`, [{ type: 'inventory.AttachHandleReleased', data: claim, metadata }], { expected: 'any' }));
    const [release] = (await store.readAll({ after: released - 1, max: 1 })).events;
    afterRelease = new Date(Date.parse(release.recordedAt) + 616).toISOString();
    exportFile = join(ledger.config.dataDir, 'log-points.jsonl');
    expect((await ledgerctl(env, 'audit', 'export', '--out', exportFile, '--quiet')).code).toBe(0);
    expect(await store.headPosition()).toBe(released);
  });
  afterAll(() => ledger?.close());

  const tenancy = (query: string) =>
    ledger.request('GET', `/api/v1/devices/${slot.device}/tenancy?${query}`, { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(released) } });

  it('REST: `from` a time after the release holds what `from` the release position holds', async () => {
    expect(arqsOf((await tenancy(`from=${released}`)).body.tenancies)).toEqual([ARQ_2]);
    expect(arqsOf((await tenancy(`from=${afterRelease}`)).body.tenancies)).toEqual([ARQ_2]);
    expect(arqsOf((await tenancy(`to=${afterRelease}`)).body.tenancies)).toEqual([ARQ_1, ARQ_2]);
  });

  it('GraphQL deviceTenancy: the same', async () => {
    const query = `{ deviceTenancy(device: "${slot.device}", from: "${afterRelease}") { tenancies { arqUuid } } }`;
    const answer = await ledger.request('POST', '/graphql', { token: ledger.adminToken, body: { query }, headers: { 'x-ledger-min-position': String(released) } });
    expect(answer.body.errors).toBeUndefined();
    expect(arqsOf(answer.body.data.deviceTenancy.tenancies)).toEqual([ARQ_2]);
  });

  it('audit who-held --from a time: the same live and from an export', async () => {
    const live = await ledgerctl(env, 'audit', 'who-held', slot.device, '--from', afterRelease, '--json');
    const offline = await ledgerctl(env, 'audit', 'who-held', slot.device, '--from', afterRelease, '--file', exportFile, '--json', '--quiet');
    expect([live.code, offline.code]).toEqual([0, 0]);
    expect(arqsOf(JSON.parse(live.stdout).tenancies)).toEqual([ARQ_2]);
    expect(arqsOf(JSON.parse(offline.stdout).tenancies)).toEqual([ARQ_2]);
  });

  it('audit replay --as-of a time is labelled with the last event at or before it, not the next event the read model reads', async () => {
    // Before the first event: nothing at or before it, although the quota read model first reads an event far later.
    for (const file of [[], ['--file', exportFile]]) {
      const before = await ledgerctl(env, 'audit', 'replay', '--as-of', '2000-01-01T00:00:00Z', '--projection', 'quota', ...file, '--json', '--quiet');
      expect([before.code, JSON.parse(before.stdout).position]).toEqual([0, 0]);
      const after = await ledgerctl(env, 'audit', 'replay', '--as-of', afterRelease, '--projection', 'quota', ...file, '--json', '--quiet');
      expect(JSON.parse(after.stdout).position).toBe(released);
    }
  });
});
