import { readFileSync, writeFileSync } from 'node:fs';
import type { Principal } from '@ledger/auth';
import { join } from 'node:path';
import type { EventStore, RecordedEvent } from '@ledger/eventstore';
import { REPLAYABLE_PROJECTIONS } from '@ledger/projections/catalog';
import { ARQ_1, ARQ_2, type HeldSlot } from '../../projections/device-history/testing/tenancy-history';
import { recordAuditHistory } from '../support/audit-history';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { ledgerctl } from '../support/ledgerctl-process';

const member = (project: string): Principal => ({ user: `${project}-user`, project, roles: ['member'] });

describe("the auditor's questions: asOf, device tenancy, timelines, ledgerctl audit", () => {
  let ledger: TestLedger;
  let store: EventStore;
  let env: Record<string, string>;
  let slot: HeldSlot;
  let beforeReport: number;
  let beforeQuota: number;
  let head: number;
  let exportFile: string;

  const get = (path: string, token = ledger.adminToken) => ledger.request('GET', path, { token, headers: { 'x-ledger-min-position': String(head) } });

  beforeAll(async () => {
    ledger = await startTestLedger();
    env = { LEDGER_DATA_DIR: ledger.config.dataDir, LEDGER_URL: ledger.url };
    ({ store, slot, beforeReport, beforeQuota, head } = await recordAuditHistory(ledger));
    exportFile = join(ledger.config.dataDir, 'audit-export.jsonl');
    expect((await ledgerctl(env, 'audit', 'export', '--out', exportFile, '--quiet')).code).toBe(0);
  });
  afterAll(() => ledger.close());

  describe('device tenancy and timeline over REST', () => {
    it('shows the operator every project that held the device, and each member only its own', async () => {
      const all = await get(`/api/v1/devices/${slot.device}/tenancy`);
      expect(all.status).toBe(200);
      expect(all.body.tenancies.map((t: { arqUuid: string; projectId: string; bitstreamId: string; to: unknown }) => [t.arqUuid, t.projectId, t.bitstreamId, t.to === null])).toEqual([
        [ARQ_1, 'p1', 'bs-1', false],
        [ARQ_2, 'p2', 'bs-1', true],
      ]);
      expect(all.body.tenancies[0]).toMatchObject({ attachHandleUuid: slot.handle, deployableUuid: slot.deployable, region: 'pr0', instanceUuid: 'vm-p1', deviceProfile: { name: 'fpga-p1' } });
      const p1 = await get(`/api/v1/devices/${slot.device}/tenancy`, ledger.token(member('p1')));
      expect(p1.body.tenancies.map((t: { arqUuid: string }) => t.arqUuid)).toEqual([ARQ_1]);
      const p3 = await get(`/api/v1/devices/${slot.device}/tenancy`, ledger.token(member('p3')));
      expect(p3.body.tenancies).toEqual([]);
    });

    it('answers a range: the tenancies that overlap it', async () => {
      const released = (await get(`/api/v1/devices/${slot.device}/tenancy`)).body.tenancies[0].to.position;
      const after = await get(`/api/v1/devices/${slot.device}/tenancy?from=${released + 1}`);
      expect(after.body.tenancies.map((t: { arqUuid: string }) => t.arqUuid)).toEqual([ARQ_2]);
      const before = await get(`/api/v1/devices/${slot.device}/tenancy?to=${released}`);
      expect(before.body.tenancies.map((t: { arqUuid: string }) => t.arqUuid)).toEqual([ARQ_1]);
      const bad = await get(`/api/v1/devices/${slot.device}/tenancy?from=yesterday`);
      expect([bad.status, bad.body.code]).toEqual([400, 'AUDIT.BAD_LOG_POINT']);
    });

    it("lists the device's timeline in log order, paged; a member sees its own project's entries only", async () => {
      const all = await get(`/api/v1/devices/${slot.device}/timeline?limit=1000`);
      const types = all.body.entries.map((e: { type: string }) => e.type);
      expect(types[0]).toBe('inventory.DeviceDiscovered');
      expect(types).toEqual(expect.arrayContaining(['inventory.AttachHandleClaimed', 'inventory.RegionProgrammed', 'allocation.ArqBound']));
      const positions = all.body.entries.map((e: { position: number }) => e.position);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      const first = await get(`/api/v1/devices/${slot.device}/timeline?limit=2`);
      expect(first.body.entries).toEqual(all.body.entries.slice(0, 2));
      const second = await get(`/api/v1/devices/${slot.device}/timeline?limit=2&after=${first.body.next}`);
      expect(second.body.entries).toEqual(all.body.entries.slice(2, 4));
      const p2 = await get(`/api/v1/devices/${slot.device}/timeline`, ledger.token(member('p2')));
      expect(p2.body.entries.length).toBeGreaterThan(0);
      expect(p2.body.entries.filter((e: { projectId: string }) => e.projectId !== 'p2')).toEqual([]);
    });
  });

  describe('?asOf= on the read routes', () => {
    it('inventory: the devices and hosts as they were before and after the report', async () => {
      const past = await get(`/api/v1/devices?asOf=${beforeReport}`);
      expect([past.status, past.body.items, past.headers.get('x-ledger-as-of-position')]).toEqual([200, [], String(beforeReport)]);
      expect((await get(`/api/v1/devices?asOf=${head}`)).body.items.length).toBeGreaterThan(0);
      expect((await get(`/api/v1/hosts/compute-7?asOf=${beforeReport}`)).status).toBe(404);
      expect((await get(`/api/v1/devices/${slot.device}?asOf=${head}`)).body.uuid).toBe(slot.device);
      expect((await get(`/api/v1/deployables/${slot.deployable}?asOf=${head}`)).body.uuid).toBe(slot.deployable);
    });

    it('accelerator requests: filtered by project exactly as live reads are', async () => {
      const own = await get(`/v2/accelerator_requests?asOf=${head}`, ledger.token(member('p1')));
      expect(own.body.arqs.map((arq: { uuid: string }) => arq.uuid)).toEqual([ARQ_1]);
      expect((await get(`/v2/accelerator_requests?asOf=${beforeQuota}`, ledger.token(member('p1')))).body.arqs).toEqual([]);
      expect((await get(`/v2/accelerator_requests/${ARQ_2}?asOf=${head}`, ledger.token(member('p1')))).status).toBe(404);
    });

    it('quota: the limits and usage as they were', async () => {
      expect((await get(`/api/v1/quotas/p1?asOf=${beforeQuota}`)).body).toEqual({ project: 'p1', limits: {}, usage: {} });
      expect((await get(`/api/v1/quotas/p1?asOf=${head}`)).body).toEqual({ project: 'p1', limits: { FPGA: 4 }, usage: { FPGA: 1 } });
    });

    it('workflows: the instances as they were', async () => {
      const past = await get('/api/v1/workflows?asOf=0');
      expect([past.status, past.body.items]).toEqual([200, []]);
    });

    it('refuses a malformed point and one beyond the head with stable codes', async () => {
      const bad = await get('/api/v1/hosts?asOf=last-tuesday');
      expect([bad.status, bad.body.code]).toEqual([400, 'AUDIT.BAD_LOG_POINT']);
      const ahead = await get(`/api/v1/quotas/p1?asOf=${head + 1000}`);
      expect([ahead.status, ahead.body.code, ahead.body.head]).toEqual([400, 'AUDIT.AS_OF_BEYOND_HEAD', expect.any(Number)]);
    });
  });

  describe('ledgerctl audit', () => {
    it('who-held: the same tenancies live and from an export', async () => {
      const live = await ledgerctl(env, 'audit', 'who-held', slot.device, '--json');
      expect(live.code).toBe(0);
      const offline = await ledgerctl(env, 'audit', 'who-held', slot.device, '--file', exportFile, '--json', '--quiet');
      expect(offline.code).toBe(0);
      expect(JSON.parse(offline.stdout)).toEqual(JSON.parse(live.stdout));
      const text = await ledgerctl(env, 'audit', 'who-held', slot.device, '--to', '1');
      expect(text.stdout).toContain('nobody held');
    });

    it('who-held and replay on a damaged export name the line', async () => {
      const damaged = join(ledger.config.dataDir, 'damaged.jsonl');
      const lines = readFileSync(exportFile, 'utf8').split('\n');
      writeFileSync(damaged, [...lines.slice(0, 3), '{"position": 3, "trunc', ...lines.slice(4)].join('\n'));
      for (const args of [['who-held', slot.device], ['replay', '--as-of', String(head), '--projection', 'quota']]) {
        const result = await ledgerctl(env, 'audit', ...args, '--file', damaged, '--quiet');
        expect([result.code, result.stderr]).toEqual([1, expect.stringContaining(`${damaged}:4 is not JSON`)]);
      }
    });

    it('what-if: lists the requests another quota policy would have refused', async () => {
      const policy = join(ledger.config.dataDir, 'tighter.json');
      writeFileSync(policy, JSON.stringify({ p2: { limits: { FPGA: 0 } } }));
      const result = await ledgerctl(env, 'audit', 'what-if', '--quota', policy, '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).refusals).toEqual([expect.objectContaining({ consumerId: ARQ_2, project: 'p2', resource: 'FPGA', limit: 0 })]);
      const text = await ledgerctl(env, 'audit', 'what-if', '--quota', policy, '--file', exportFile);
      expect(text.stdout).toMatch(new RegExp(`^${ARQ_2} +p2 `, 'm'));
    });

    it('what-if: a bad policy file names the line or the field', async () => {
      const broken = join(ledger.config.dataDir, 'broken.json');
      writeFileSync(broken, '{\n  "p1": { "limits": { "FPGA": 2, } }\n}\n');
      const syntax = await ledgerctl(env, 'audit', 'what-if', '--quota', broken);
      expect(syntax.code).toBe(2);
      expect(syntax.stderr).toContain('line 2');
      writeFileSync(broken, JSON.stringify({ p1: { limits: { FPGA: -1 } } }));
      const field = await ledgerctl(env, 'audit', 'what-if', '--quota', broken);
      expect([field.code, field.stderr]).toEqual([2, expect.stringContaining('limits.FPGA')]);
      expect((await ledgerctl(env, 'audit', 'what-if', '--quota', join(ledger.config.dataDir, 'absent.json'))).code).toBe(2);
    });

    it('export --from/--to: positions and times, both ends included', async () => {
      const range = join(ledger.config.dataDir, 'range.jsonl');
      expect((await ledgerctl(env, 'audit', 'export', '--out', range, '--from', '3', '--to', '5', '--quiet')).code).toBe(0);
      const positions = (file: string) =>
        readFileSync(file, 'utf8').trim().split('\n').filter((line) => !line.startsWith('{"checkpoint"')).map((line) => (JSON.parse(line) as RecordedEvent).position);
      expect(positions(range)).toEqual([3, 4, 5]);
      const [third] = (await store.readAll({ after: 2, max: 1 })).events;
      expect((await ledgerctl(env, 'audit', 'export', '--out', range, '--from', third.recordedAt, '--quiet')).code).toBe(0);
      expect(positions(range)[0]).toBeLessThanOrEqual(3);
      expect(positions(range).at(-1)).toBe(head);
      expect((await ledgerctl(env, 'audit', 'export', '--out', range, '--to', 'soon')).code).toBe(2);
    });

    it('replay --projection: every read model, as of a point', async () => {
      for (const name of REPLAYABLE_PROJECTIONS.keys()) {
        const result = await ledgerctl(env, 'audit', 'replay', '--as-of', String(head), '--projection', name, '--file', exportFile, '--json', '--quiet');
        expect([name, result.code]).toEqual([name, 0]);
        expect(JSON.parse(result.stdout)).toMatchObject({ projection: name, position: head });
      }
      const history = JSON.parse((await ledgerctl(env, 'audit', 'replay', '--as-of', String(head), '--projection', 'device-history', '--json', '--quiet')).stdout);
      expect(history.tables.dh_tenancies).toHaveLength(2);
      expect((await ledgerctl(env, 'audit', 'replay', '--as-of', '1', '--projection', 'nonsense')).code).toBe(2);
    });
  });
});
