import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TokenCodec } from '@ledger/auth';
import { hostReportBody, hostname } from '../support/fleet';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';

const SECRET = 'allocation-crash-signing-key-0123456789';
const CLIENTS = 24;
const HOSTS = 8;
const KILL_AFTER_BINDS = 60;
const codec = new TokenCodec(SECRET);
const admin = codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] });
const nova = codec.issue({ user: 'nova', project: 'tenant-c', roles: ['member', 'service'] });

/**
 * Kills the ledger (SIGKILL) while clients run create → bind → delete flows,
 * restarts it, and checks that nothing stays half done: once the bind
 * workflows have resumed (and the arq-holds reactor has given back what
 * unbound, deleted or never-recorded requests held), no bind is left starting, every attach-handle claim
 * belongs to a request bound with that handle, and the project's quota in
 * use equals what its live requests hold.
 */
describe('crash recovery of accelerator requests (embedded SQLite)', () => {
  let dataDir: string;
  let ledger: LedgerProcess | undefined;
  const env = () => ({ LEDGER_DATA_DIR: dataDir, LEDGER_AUTH_SECRET: SECRET, LEDGER_PROCESSOR_LEASE_MS: '2000', LEDGER_BIND_TIMEOUT_MS: '1500' });
  const call = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${ledger!.url}${path}`, {
      method,
      headers: { 'x-auth-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** A GET answered with JSON: the API's shapes are asserted by the v2 and inventory suites, here only read. */
  const getJson = async (path: string): Promise<any> => (await call('GET', path, admin)).json();

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-alloc-crash-'));
  });
  afterAll(async () => {
    await ledger?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes every interrupted bind, claim and reservation after a restart', async () => {
    ledger = await startLedgerProcess(env());
    const providers: string[] = [];
    for (let i = 0; i < HOSTS; i++) {
      const agent = codec.issue({ user: `agent:${hostname(i)}`, project: null, roles: ['agent'], host: hostname(i) });
      expect((await call('PUT', `/api/v1/hosts/${hostname(i)}/report`, agent, hostReportBody(i, 0))).status).toBe(200);
    }
    const deployables = await getJson('/api/v1/deployables?resourceClass=FPGA&limit=100');
    providers.push(...deployables.items.map((d: { rpUuid: string }) => d.rpUuid));
    expect(providers).toHaveLength(HOSTS);
    expect((await call('POST', '/v2/device_profiles', admin, [{ name: 'fpga-dp', groups: [{ 'resources:FPGA': '1' }] }])).status).toBe(201);

    let binds = 0;
    let killed = false;
    let enough!: () => void;
    const killPoint = new Promise<void>((resolve) => (enough = resolve));
    const flow = async (client: number) => {
      while (!killed) {
        const created = await call('POST', '/v2/accelerator_requests', nova, { device_profile_name: 'fpga-dp' }).catch(() => undefined);
        if (!created || created.status !== 201) return;
        const [arq] = ((await created.json()) as { arqs: { uuid: string }[] }).arqs;
        const instance = crypto.randomUUID();
        const ops = [
          { op: 'add', path: '/hostname', value: hostname(client % HOSTS) },
          { op: 'add', path: '/device_rp_uuid', value: providers[client % HOSTS] },
          { op: 'add', path: '/instance_uuid', value: instance },
        ];
        const bound = await call('PATCH', '/v2/accelerator_requests', nova, { [arq.uuid]: ops }).catch(() => undefined);
        if (!bound) return;
        if (++binds >= KILL_AFTER_BINDS) enough();
        if (client % 2 === 0) await call('DELETE', `/v2/accelerator_requests?instance=${instance}`, nova).catch(() => undefined);
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, i) => flow(i));
    await killPoint;
    killed = true;
    await ledger.kill('SIGKILL');
    await Promise.all(clients);

    ledger = await startLedgerProcess(env());
    // The workflow runtime resumes interrupted binds from the log once its lease is free; wait for the outcome.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const problems = await inconsistencies();
      if (problems.length === 0) break;
      if (Date.now() > deadline) throw new Error(`still inconsistent after the workflows and reactors had time to resume:\n${problems.join('\n')}\n${ledger.output()}`);
      await delay(200);
    }
  });

  /** What a crash may have left half done, as the v2 and native APIs show it; empty once everything is finished. */
  async function inconsistencies(): Promise<string[]> {
    const problems: string[] = [];
    const { arqs } = await getJson('/v2/accelerator_requests');
    for (const arq of arqs) if (arq.state === 'BindStarted') problems.push(`${arq.uuid} is still BindStarted`);
    const boundHandles = new Set<string>();
    for (const arq of arqs.filter((a: { state: string }) => a.state === 'Bound')) boundHandles.add(`${arq.device_rp_uuid}/${JSON.stringify(arq.attach_handle_info)}`);
    const deployables = (await getJson('/api/v1/deployables?resourceClass=FPGA&limit=100')).items;
    const claimedBy: string[] = [];
    for (const deployable of deployables) {
      const handles = (await getJson(`/api/v1/deployables/${deployable.uuid}`)).attachHandles ?? [];
      claimedBy.push(...handles.filter((handle: { inUse: boolean }) => handle.inUse).map((handle: { claimedBy: string }) => handle.claimedBy));
    }
    if (claimedBy.length !== boundHandles.size) {
      const bound = new Set(arqs.filter((a: { state: string }) => a.state === 'Bound').map((a: { uuid: string }) => a.uuid));
      const strays = claimedBy.filter((uuid) => !bound.has(uuid));
      const failed = (await getJson('/api/v1/workflows?name=bind&status=failed')).items ?? [];
      problems.push(`${claimedBy.length} handles claimed, ${boundHandles.size} requests bound; claimed by requests not bound: ${strays.join(', ')}; failed bind workflows: ${JSON.stringify(failed)}`);
    }
    const quota = await getJson('/api/v1/quotas/tenant-c');
    if ((quota.usage.FPGA ?? 0) !== arqs.length) problems.push(`quota in use ${quota.usage.FPGA ?? 0}, live requests ${arqs.length}`);
    return problems;
  }
});
