import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arqStream } from '@ledger/allocation';
import { bitstreamContentPath } from '@ledger/kernel';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { deviceStream } from '@ledger/inventory';
import { eventually } from '@ledger/processing/testing';
import { workflowJobId } from '@ledger/workflows';
import { simulatedFunctionId } from '../../apps/agent/src/drivers/simulated/simulated.driver';
import type { SimulatedOperation } from '../../apps/agent/src/drivers/simulated/simulated.settings';
import type { AgentProcess } from '../support/agent-process';
import { imageBody, originBody, pemOf, serveImages } from '../support/bitstreams';
import { expectCyborgRefusal } from '../support/cyborg-v2-assertions';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { startAgentOnLedger } from '../support/simulated-agent';

const PROJECT = 'tenant-bp';
/** One host per agent behaviour: the simulated driver fails the next two of an operation (each step tries twice). */
const HOSTS = { ok: 'bindprog-ok', probeFails: 'bindprog-probe', programFails: 'bindprog-program' } as const;
const FAIL_NEXT: Record<string, Partial<Record<SimulatedOperation, number>>> = {
  [HOSTS.ok]: {},
  [HOSTS.probeFails]: { probe: 2 },
  [HOSTS.programFails]: { program: 2 },
};

interface Registered {
  readonly bitstreamId: string;
  readonly sha256: string;
  /** The function the simulated region reads back once loaded with it. */
  readonly readBack: string;
}

interface FpgaRegion {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  /** The shell's interface id the device reports (`board_info.interface_id`): the ledger never loaded one there. */
  readonly interfaceId: string;
  readonly deployableUuid: string;
  readonly rpUuid: string;
}

/**
 * The bind programs the region its profile asks for (docs/workflows.md, the
 * bind workflow): a ledger, real simulated agent processes, signed
 * bitstreams in the registry, and Nova's calls over /v2.
 */
describe('a bind programs the region its profile names (real simulated agents)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let stateDir: string;
  const agents: AgentProcess[] = [];
  const regions: Record<string, FpgaRegion> = {};
  const images: Record<'old' | 'target' | 'byFunction' | 'mislabelled' | 'retired' | 'revokedKey' | 'atOrigin' | 'otherShell', Registered> = {} as never;
  const originImages = new Map<string, Buffer>();
  let imageStore: Awaited<ReturnType<typeof serveImages>>;
  const signer = generateKeyPairSync('ed25519');
  // Signs one image, then is revoked: that image is no longer vouched for.
  const formerSigner = generateKeyPairSync('ed25519');
  // Nova calls with the tenant's token, and deletes bound requests with its service role.
  const nova = () => ledger.token({ user: 'nova', project: PROJECT, roles: ['member', 'service'] });
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });

  async function startAgent(hostname: string): Promise<AgentProcess> {
    const agent = await startAgentOnLedger(ledger, { hostname, dir: stateDir, simulated: { fpgas: 1, fpgaVfs: 2, gpus: 0, nics: 0, failNext: FAIL_NEXT[hostname] } });
    agents.push(agent);
    return agent;
  }

  /** An image built for the shell the simulated FPGAs report, unless `interfaceId` names another. */
  async function register(label: string, functionId?: (sha256: string) => string, by = signer, interfaceId = regions[HOSTS.ok].interfaceId): Promise<Registered> {
    const content = Buffer.from(`${label} ${randomUUID()} `.repeat(32));
    const sha256 = createHash('sha256').update(content).digest('hex');
    const readBack = simulatedFunctionId(sha256);
    const body = imageBody(content, by.privateKey, { name: label, functionId: (functionId ?? (() => readBack))(sha256), interfaceId });
    const registered = await admin('POST', '/api/v1/bitstreams', body);
    expect(registered.status).toBe(201);
    return { bitstreamId: registered.body.bitstreamId, sha256, readBack };
  }

  /** An image kept in the loopback image store, registered by its URL (the ledger keeps no bytes of it). */
  async function registerAtOrigin(path: string): Promise<Registered> {
    const content = Buffer.from(`${path} ${randomUUID()} `.repeat(32));
    originImages.set(path, content);
    const body = originBody(imageStore.url(path), content, signer.privateKey);
    const readBack = simulatedFunctionId(body.sha256);
    const registered = await admin('POST', '/api/v1/bitstreams', { ...body, functionId: readBack, interfaceId: regions[HOSTS.ok].interfaceId });
    expect(registered.status).toBe(201);
    return { bitstreamId: registered.body.bitstreamId, sha256: body.sha256, readBack };
  }

  async function fpgaRegionOf(hostname: string): Promise<FpgaRegion> {
    const device = (await admin('GET', `/api/v1/devices?hostname=${hostname}`)).body.items[0];
    const deployable = (await admin('GET', `/api/v1/deployables?hostname=${hostname}&resourceClass=FPGA`)).body.items[0];
    return { deviceUuid: device.uuid, pciAddress: device.pciAddress, interfaceId: device.boardInfo.interface_id, deployableUuid: deployable.uuid, rpUuid: deployable.rpUuid };
  }

  const profile = async (name: string, accel: Record<string, string>) => {
    const created = await admin('POST', '/v2/device_profiles', [{ name, groups: [{ 'resources:FPGA': '1', ...accel }] }]);
    expect(created.status).toBe(201);
  };
  const createArq = async (profileName: string): Promise<string> => {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova(), body: { device_profile_name: profileName } });
    expect(created.status).toBe(201);
    return created.body.arqs[0].uuid;
  };
  const bind = (arqUuid: string, hostname: string) =>
    ledger.request('PATCH', '/v2/accelerator_requests', {
      token: nova(),
      body: {
        [arqUuid]: [
          { op: 'add', path: '/hostname', value: hostname },
          { op: 'add', path: '/device_rp_uuid', value: regions[hostname].rpUuid },
          { op: 'add', path: '/instance_uuid', value: randomUUID() },
        ],
      },
    });
  const arqState = async (arqUuid: string) => (await ledger.request('GET', `/v2/accelerator_requests/${arqUuid}`, { token: nova() })).body.state;
  const bindIdOf = async (arqUuid: string): Promise<string> => {
    const started = (await store.readStream(arqStream(arqUuid))).filter((event) => event.type === 'allocation.ArqBindStarted').at(-1);
    return (started!.data as { bindId: string }).bindId;
  };
  const workflowOf = async (arqUuid: string) => (await admin('GET', `/api/v1/workflows/bind/${await bindIdOf(arqUuid)}`)).body;
  const stepsOf = (workflow: { steps: { step: string; phase: string; status: string }[] }) => workflow.steps.map((step) => `${step.step}/${step.phase}: ${step.status}`);
  /** Read models as of `position` (the ledger waits for them to get there). */
  const fresh = (position: number) => ({ token: ledger.adminToken, headers: { 'x-ledger-min-position': String(position) } });
  const deployable = async (hostname: string, position = 0) => (await ledger.request('GET', `/api/v1/deployables/${regions[hostname].deployableUuid}`, fresh(position))).body;
  const placementOf = async (hostname: string, position = 0) => (await ledger.request('GET', `/api/v1/hosts/${hostname}/placement`, fresh(position))).body.providers;
  /** The device fact (inventory.RegionProgrammed or RegionProgramFailed) the inventory's job-facts reactor records for a bind's program job. */
  async function programFactOf(hostname: string, arqUuid: string, key: string) {
    const jobId = workflowJobId(`workflow-bind-${await bindIdOf(arqUuid)}/${key}`);
    let fact: { type: string; position: number } | undefined;
    await eventually(async () => {
      fact = (await store.readStream(deviceStream(regions[hostname].deviceUuid))).find((event) => (event.data as { jobId?: string }).jobId === jobId);
      return fact !== undefined;
    });
    return fact!;
  }
  /** Loads a registered image into the host's region through the jobs API, as an operator would. */
  async function preload(hostname: string, image: Registered): Promise<void> {
    const { deviceUuid, deployableUuid, pciAddress } = regions[hostname];
    const params = { deviceUuid, deployableUuid, pciAddress, image: { url: bitstreamContentPath(image.bitstreamId), sha256: image.sha256 }, bitstreamId: image.bitstreamId };
    const requested = await admin('POST', `/api/v1/hosts/${hostname}/jobs`, { kind: 'program', params, timeoutSeconds: 60 });
    expect(requested.status).toBe(202);
    await eventually(async () => (await deployable(hostname)).bitstreamId === image.bitstreamId);
    await eventually(async () => JSON.stringify(await placementOf(hostname)).includes(image.readBack.toUpperCase()));
  }

  /** Binds a new request of `profileName` on `hostname`, which must fail: 409 ARQ.BIND_FAILED, the request BindFailed, its workflow compensated. */
  async function failingBind(hostname: string, profileName: string) {
    const placementBefore = await placementOf(hostname, await store.headPosition());
    const arq = await createArq(profileName);
    const refused = await bind(arq, hostname);
    expect([refused.status, refused.headers.get('x-error-code')]).toEqual([409, 'ARQ.BIND_FAILED']);
    expect(await arqState(arq)).toBe('BindFailed');
    const workflow = await workflowOf(arq);
    expect(workflow.status).toBe('compensated');
    return { arq, workflow, placementBefore };
  }

  /**
   * What a failed bind must leave as it found it, read once the fact of its
   * last program job (`last.program`, when it sent one) is in: no attach
   * handle claimed but those of the requests still bound, the project's
   * quota holding each live request's unit and nothing more, the region
   * holding what it held, Placement's desired state as it was.
   */
  async function expectNothingLeaked(
    hostname: string,
    last: { arq: string; program?: string; fact?: string },
    region: { bitstreamId: string | null; functionId: string | null },
    placementBefore: unknown,
  ): Promise<void> {
    if (last.program) expect((await programFactOf(hostname, last.arq, last.program)).type).toBe(last.fact);
    const position = await store.headPosition();
    const shown = await deployable(hostname, position);
    const arqs = (await ledger.request('GET', '/v2/accelerator_requests', { token: nova() })).body.arqs as { uuid: string; state: string; hostname: string | null }[];
    const boundHere = arqs.filter((arq) => arq.state === 'Bound' && arq.hostname === hostname).map((arq) => arq.uuid);
    const claimedBy = shown.attachHandles.map((handle: { claimedBy: string | null }) => handle.claimedBy).filter((uuid: string | null) => uuid !== null);
    expect(claimedBy.sort()).toEqual(boundHere.sort());
    expect({ bitstreamId: shown.bitstreamId, functionId: shown.functionId }).toEqual(region);
    expect((await admin('GET', `/api/v1/quotas/${PROJECT}`)).body.usage).toEqual({ FPGA: arqs.length });
    expect(await placementOf(hostname, position)).toEqual(placementBefore);
  }

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_BIND_TIMEOUT_MS: '120000' });
    store = ledger.app.get<EventStore>(EVENT_STORE);
    stateDir = mkdtempSync(join(tmpdir(), 'bind-programming-e2e-'));
    imageStore = await serveImages(originImages);
    expect((await admin('POST', '/api/v1/signing-keys', { publicKeyPem: pemOf(signer.publicKey), label: 'release' })).status).toBe(200);
    const formerKey = (await admin('POST', '/api/v1/signing-keys', { publicKeyPem: pemOf(formerSigner.publicKey), label: 'former' })).body.keyId;
    await Promise.all(Object.values(HOSTS).map(startAgent));
    for (const hostname of Object.values(HOSTS)) regions[hostname] = await fpgaRegionOf(hostname);
    images.old = await register('old');
    images.target = await register('target');
    images.byFunction = await register('by-function');
    // Declares a function the region will not read back: the image is not what its label says.
    images.mislabelled = await register('mislabelled', () => 'ee'.repeat(16));
    images.retired = await register('retired');
    expect((await admin('POST', `/api/v1/bitstreams/${images.retired.bitstreamId}/retire`, { reason: 'superseded' })).status).toBe(200);
    images.revokedKey = await register('revoked-key', undefined, formerSigner);
    images.atOrigin = await registerAtOrigin('/fpga/at-origin.gbs');
    images.otherShell = await register('other-shell', undefined, signer, '12'.repeat(16));
    expect((await admin('POST', `/api/v1/signing-keys/${formerKey}/revoke`)).status).toBe(200);
    await profile('bp-plain', {});
    await profile('bp-target', { 'accel:bitstream_id': images.target.bitstreamId });
    await profile('bp-function', { 'accel:function_id': images.byFunction.readBack });
    await profile('bp-mislabelled', { 'accel:function_id': 'ee'.repeat(16) });
    await profile('bp-unknown', { 'accel:bitstream_id': randomUUID() });
    await profile('bp-retired', { 'accel:bitstream_id': images.retired.bitstreamId });
    await profile('bp-no-function', { 'accel:function_id': 'dd'.repeat(16) });
    await profile('bp-revoked-key', { 'accel:bitstream_id': images.revokedKey.bitstreamId });
    await profile('bp-origin', { 'accel:bitstream_id': images.atOrigin.bitstreamId });
    await profile('bp-other-shell', { 'accel:bitstream_id': images.otherShell.bitstreamId });
    await profile('bp-other-shell-function', { 'accel:function_id': images.otherShell.readBack });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop('SIGKILL')));
    await ledger?.close();
    await imageStore?.close();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  // First, while the agents are idle: a refusal must leave the log's head where it was, and a job's facts would move it.
  it.each([
    ['an unknown bitstream', 'bp-unknown', 'ARQ.BITSTREAM_UNKNOWN'],
    ['a retired bitstream', 'bp-retired', 'ARQ.BITSTREAM_RETIRED'],
    ['a bitstream signed by a key revoked since', 'bp-revoked-key', 'ARQ.BITSTREAM_UNTRUSTED'],
    ['a function no registered bitstream has', 'bp-no-function', 'ARQ.NO_BITSTREAM_FOR_FUNCTION'],
    ['a bitstream built for another shell than the device reports', 'bp-other-shell', 'ARQ.BITSTREAM_INCOMPATIBLE'],
    ['a function whose only bitstream is built for another shell than the device reports', 'bp-other-shell-function', 'ARQ.NO_BITSTREAM_FOR_FUNCTION'],
  ])('refuses a bind whose profile names %s with 409 and records nothing', async (_what, profileName, code) => {
    const arq = await createArq(profileName);
    const message = await expectCyborgRefusal(store, () => bind(arq, HOSTS.ok), 409, code);
    expect(message).toMatch(/bitstream/i);
    expect(await arqState(arq)).toBe('Initial');
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${arq}`, { token: nova() })).status).toBe(204);
  });

  it('programs the bitstream the profile names, has the agent probe it, then binds; /v2/deployables shows the bitstream', async () => {
    const arq = await createArq('bp-target');
    const bound = await bind(arq, HOSTS.ok);
    expect(bound.status).toBe(202);
    expect(await arqState(arq)).toBe('Bound');
    const bindId = await bindIdOf(arq);
    const workflow = await workflowOf(arq);
    expect(workflow.status).toBe('completed');
    // From the request to its bind workflow and back (a bind that programs is one; docs/workflows.md).
    await eventually(async () => (await admin('GET', `/api/v1/workflows?arq=${arq}`)).body.items.length === 1);
    expect((await admin('GET', `/api/v1/workflows?arq=${arq}`)).body.items).toMatchObject([{ name: 'bind', id: bindId, subject: `arq-${arq}`, status: 'completed' }]);
    expect(stepsOf(workflow)).toEqual([
      'start-bind/do: done',
      'carve-partition/do: skipped',
      'charge-capacity/do: skipped',
      'claim-handle/do: done',
      'reserve-slices/do: skipped',
      'program-region/do: done',
      'verify-access/do: done',
      'mark-bound/do: done',
    ]);
    expect(workflow.steps.find((step: { step: string }) => step.step === 'program-region').evidence).toMatchObject({ functionId: images.target.readBack, sha256: images.target.sha256 });
    for (const [step, kind] of [
      ['program-region', 'program'],
      ['verify-access', 'probe'],
    ]) {
      const job = (await admin('GET', `/api/v1/jobs/${workflowJobId(`workflow-bind-${bindId}/${step}/do/1`)}`)).body;
      expect(job).toMatchObject({ hostname: HOSTS.ok, kind, state: 'completed' });
    }
    await eventually(async () => {
      const listed = (await admin('GET', '/v2/deployables')).body.deployables.find((d: { uuid: string }) => d.uuid === regions[HOSTS.ok].deployableUuid);
      return listed.bitstream_id === images.target.bitstreamId;
    });
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${arq}`, { token: nova() })).status).toBe(204);
  }, 120_000);

  it('fails verify-access: loads back what the region held, releases the handle, and the request ends BindFailed', async () => {
    await preload(HOSTS.probeFails, images.old);
    const { arq, workflow, placementBefore } = await failingBind(HOSTS.probeFails, 'bp-target');
    expect(stepsOf(workflow)).toEqual([
      'start-bind/do: done',
      'carve-partition/do: skipped',
      'charge-capacity/do: skipped',
      'claim-handle/do: done',
      'reserve-slices/do: skipped',
      'program-region/do: done',
      'verify-access/do: failed',
      'program-region/compensate: compensated',
      'claim-handle/compensate: compensated',
      'start-bind/compensate: compensated',
    ]);
    const restore = { arq, program: 'program-region/compensate/1', fact: 'inventory.RegionProgrammed' };
    await expectNothingLeaked(HOSTS.probeFails, restore, { bitstreamId: images.old.bitstreamId, functionId: images.old.readBack }, placementBefore);
  }, 120_000);

  it('fails program-region: nothing to load back (the driver left the region blank, as it was), the handle released, BindFailed', async () => {
    const { arq, workflow, placementBefore } = await failingBind(HOSTS.programFails, 'bp-target');
    expect(stepsOf(workflow)).toEqual([
      'start-bind/do: done',
      'carve-partition/do: skipped',
      'charge-capacity/do: skipped',
      'claim-handle/do: done',
      'reserve-slices/do: skipped',
      'program-region/do: failed',
      'claim-handle/compensate: compensated',
      'start-bind/compensate: compensated',
    ]);
    const lastLoad = { arq, program: 'program-region/do/2', fact: 'inventory.RegionProgramFailed' };
    await expectNothingLeaked(HOSTS.programFails, lastLoad, { bitstreamId: null, functionId: null }, placementBefore);
  }, 120_000);

  it('fails claim-handle when every handle is taken: nothing is programmed, nothing held', async () => {
    const holders = [await createArq('bp-plain'), await createArq('bp-plain')];
    for (const holder of holders) expect((await bind(holder, HOSTS.probeFails)).status).toBe(202);
    const { arq, workflow, placementBefore } = await failingBind(HOSTS.probeFails, 'bp-target');
    expect(workflow.reason).toMatch(/^INVENTORY\.NO_FREE_ATTACH_HANDLE: /);
    expect(workflow.code).toBe('INVENTORY.NO_FREE_ATTACH_HANDLE');
    expect(stepsOf(workflow)).toEqual(['start-bind/do: done', 'carve-partition/do: skipped', 'charge-capacity/do: skipped', 'claim-handle/do: failed', 'reserve-slices/do: skipped', 'start-bind/compensate: compensated']);
    await expectNothingLeaked(HOSTS.probeFails, { arq }, { bitstreamId: images.old.bitstreamId, functionId: images.old.readBack }, placementBefore);
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${[...holders, arq].join(',')}`, { token: nova() })).status).toBe(204);
  }, 120_000);

  it('picks a bitstream by accel:function_id, and undoes a load whose function read back is not the one asked for', async () => {
    // The region holds the first test's bitstream: a failed bind loads it back.
    const { arq: mislabelled, workflow, placementBefore } = await failingBind(HOSTS.ok, 'bp-mislabelled');
    expect(workflow.reason).toMatch(/ARQ\.FUNCTION_MISMATCH: the region reads back function/);
    expect(stepsOf(workflow)).toContain('program-region/compensate: compensated');
    const restore = { arq: mislabelled, program: 'program-region/compensate/1', fact: 'inventory.RegionProgrammed' };
    await expectNothingLeaked(HOSTS.ok, restore, { bitstreamId: images.target.bitstreamId, functionId: images.target.readBack }, placementBefore);

    const byFunction = await createArq('bp-function');
    expect((await bind(byFunction, HOSTS.ok)).status).toBe(202);
    expect(await arqState(byFunction)).toBe('Bound');
    const program = (await workflowOf(byFunction)).steps.find((step: { step: string }) => step.step === 'program-region');
    expect(program).toMatchObject({ status: 'done', evidence: { functionId: images.byFunction.readBack, sha256: images.byFunction.sha256 } });
    await eventually(async () => (await deployable(HOSTS.ok)).bitstreamId === images.byFunction.bitstreamId);
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${byFunction},${mislabelled}`, { token: nova() })).status).toBe(204);
  }, 120_000);

  // Last: it leaves the ok host's region holding the origin image.
  it('programs an image registered by origin URL: the job names the URL, and the agent fetches it from the image store', async () => {
    const arq = await createArq('bp-origin');
    const readsBefore = imageStore.reads.get('/fpga/at-origin.gbs') ?? 0;
    expect((await bind(arq, HOSTS.ok)).status).toBe(202);
    expect(await arqState(arq)).toBe('Bound');
    const job = (await admin('GET', `/api/v1/jobs/${workflowJobId(`workflow-bind-${await bindIdOf(arq)}/program-region/do/1`)}`)).body;
    expect(job).toMatchObject({ kind: 'program', state: 'completed', params: { image: { url: imageStore.url('/fpga/at-origin.gbs'), sha256: images.atOrigin.sha256 } } });
    expect(imageStore.reads.get('/fpga/at-origin.gbs')).toBe(readsBefore + 1);
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${arq}`, { token: nova() })).status).toBe(204);
  }, 120_000);

  it('programs a two-region card region by region: each bind loads the region it claimed, and each region keeps its own record', async () => {
    const hostname = 'bindprog-regions';
    agents.push(await startAgentOnLedger(ledger, { hostname, dir: stateDir, simulated: { fpgas: 1, fpgaRegions: 2, fpgaVfs: 2, gpus: 0, nics: 0 } }));
    let listed: { uuid: string; name: string; rpUuid: string }[] = [];
    await eventually(async () => (listed = (await admin('GET', `/api/v1/deployables?hostname=${hostname}&resourceClass=FPGA`)).body.items).length === 2);
    const [region0, region1] = ['_region0', '_region1'].map((suffix) => listed.find((candidate) => candidate.name.endsWith(suffix))!);
    const device = await fpgaRegionOf(hostname);
    const handlesOf = async (uuid: string): Promise<string[]> => (await admin('GET', `/api/v1/deployables/${uuid}`)).body.attachHandles.map((handle: { address: string }) => handle.address);
    const loads = async (arq: string, into: { uuid: string; rpUuid: string }) => {
      regions[hostname] = { ...device, deployableUuid: into.uuid, rpUuid: into.rpUuid };
      expect((await bind(arq, hostname)).status).toBe(202);
      expect(await arqState(arq)).toBe('Bound');
      const job = (await admin('GET', `/api/v1/jobs/${workflowJobId(`workflow-bind-${await bindIdOf(arq)}/program-region/do/1`)}`)).body;
      // Sent to the VF that serves the claimed region, not the card's first.
      expect(await handlesOf(into.uuid)).toContain(job.params.pciAddress);
      return programFactOf(hostname, arq, 'program-region/do/1');
    };
    const first = await createArq('bp-target');
    expect(await loads(first, region1)).toMatchObject({ type: 'inventory.RegionProgrammed', data: { deployableUuid: region1.uuid, region: '1', bitstreamId: images.target.bitstreamId } });
    const second = await createArq('bp-function');
    expect(await loads(second, region0)).toMatchObject({ type: 'inventory.RegionProgrammed', data: { deployableUuid: region0.uuid, region: '0', functionId: images.byFunction.readBack } });
    const recorded = async (uuid: string) => (await admin('GET', `/api/v1/deployables/${uuid}`)).body;
    await eventually(async () => (await recorded(region0.uuid)).functionId === images.byFunction.readBack);
    // Loading region 0 left region 1 as the first bind left it.
    expect(await recorded(region1.uuid)).toMatchObject({ bitstreamId: images.target.bitstreamId, functionId: images.target.readBack });
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${first},${second}`, { token: nova() })).status).toBe(204);
  }, 120_000);
});
