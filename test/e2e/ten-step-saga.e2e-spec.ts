import { createHash, randomUUID } from 'node:crypto';
import { arqStream } from '@ledger/allocation';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { workflowJobId } from '@ledger/workflows';
import { simulatedFunctionId, simulatedInterfaceId } from '../../apps/agent/src/drivers/simulated/simulated.driver';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentProcess } from '../support/agent-process';
import { startAgentOnLedger } from '../support/simulated-agent';
import { imageBody } from '../support/bitstreams';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

const PROJECT = 'tenant-saga';
const ENDED = ['completed', 'compensated', 'failed'];

interface WorkflowView {
  readonly id: string;
  readonly status: string;
  readonly reason: string | null;
  readonly steps: readonly { readonly step: string; readonly phase: string; readonly status: string }[];
}

/**
 * The ten steps of docs/workflows.md on one host, end to end on a real
 * simulated agent: an operator provisions the host (steps 1–5, the
 * `provision` workflow), then Nova creates a request from a profile that
 * names a bitstream and binds it (steps 6–10: the request with its quota
 * unit, then the `bind` workflow). Each step's fact is read from the log.
 */
describe('the ten-step workflow: a host provisioned, then a request bound to a region programmed for it', () => {
  let ledger: TestLedger;
  let store: EventStore;
  const agents: AgentProcess[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), 'ledger-agents-'));
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });
  const nova = () => ledger.token({ user: 'nova', project: PROJECT, roles: ['member', 'service'] });
  const typesOf = async (stream: string) => (await store.readStream(stream)).map((event) => event.type);
  const stepsOf = (view: WorkflowView) => view.steps.map((step) => `${step.step}/${step.phase}: ${step.status}`);
  /** Why each of the host's providers is reserved in the desired Placement state, once the read model has the log up to now. */
  const reservedBecause = async (hostname: string): Promise<string[][]> => {
    const fresh = { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(await store.headPosition()) } };
    return (await ledger.request('GET', `/api/v1/hosts/${hostname}/placement`, fresh)).body.providers.map((provider: { reservedBecause: string[] }) => provider.reservedBecause);
  };

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_BITSTREAM_ALLOW_UNSIGNED: 'true' });
    store = ledger.app.get<EventStore>(EVENT_STORE);
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop('SIGKILL')));
    rmSync(stateDir, { recursive: true, force: true });
    await ledger?.close();
  });

  /** A host with one simulated FPGA (4 VFs before provisioning) whose agent is up; answers the FPGA's uuid. */
  async function hostWithAgent(hostname: string, failNext: Record<string, number> = {}): Promise<string> {
    agents.push(await startAgentOnLedger(ledger, { hostname, dir: stateDir, simulated: { fpgas: 1, fpgaVfs: 4, gpus: 0, nics: 0, failNext } }));
    return (await admin('GET', `/api/v1/devices?hostname=${hostname}`)).body.items[0].uuid;
  }

  /**
   * Registers an image (unsigned: the suite's ledger allows it) declaring what the simulated hardware reads back once
   * loaded with it; a partial-reconfiguration image names the shell it is built for.
   */
  async function register(kind: 'shell' | 'function', forShell?: { sha256: string }): Promise<{ bitstreamId: string; sha256: string }> {
    const content = Buffer.from(`${kind} ${randomUUID()} `.repeat(32));
    const sha256 = createHash('sha256').update(content).digest('hex');
    const declared =
      kind === 'shell'
        ? { functionId: '00'.repeat(16), interfaceId: simulatedInterfaceId(sha256) }
        : { functionId: simulatedFunctionId(sha256), interfaceId: simulatedInterfaceId(forShell!.sha256) };
    const registered = await admin('POST', '/api/v1/bitstreams', imageBody(content, null, { name: `saga-${kind}`, ...declared }));
    expect(registered.status).toBe(201);
    return { bitstreamId: registered.body.bitstreamId, sha256 };
  }

  async function provisioned(hostname: string, shell: string, vfs: number): Promise<WorkflowView> {
    const started = await admin('POST', `/api/v1/hosts/${hostname}/provision`, { shell, vfs });
    expect(started.status).toBe(202);
    const location = started.headers.get('location')!;
    await eventually(async () => ENDED.includes((await admin('GET', location)).body?.status), 60_000);
    return (await admin('GET', location)).body;
  }

  it('runs all ten steps, each leaving its fact on the stream that owns it', async () => {
    const hostname = 'saga-ok';
    const fpga = await hostWithAgent(hostname);
    const shell = await register('shell');
    const accelerator = await register('function', shell);

    // Steps 1–5: registered, agent ready, devices reported (Placement not configured here), shell loaded and checked, VFs configured.
    const provision = await provisioned(hostname, shell.bitstreamId, 2);
    expect([provision.status, stepsOf(provision)]).toEqual([
      'completed',
      [
        'register-host/do: done',
        'agent-ready/do: done',
        'report-devices/do: done',
        'sync-placement/do: done',
        'program-shell/do: done',
        'verify-shell/do: done',
        'configure-vfs/do: done',
        'mark-provisioned/do: done',
      ],
    ]);
    expect((await typesOf(`host-${hostname}`)).filter((type) => type.startsWith('inventory.HostProvision'))).toEqual([
      'inventory.HostProvisioningStarted',
      'inventory.HostProvisioned',
    ]);
    expect(await reservedBecause(hostname)).toEqual([[]]);
    // The agent's next report offers the two VFs as the FPGA's attach handles: what the bind claims.
    const deployable = (await admin('GET', `/api/v1/deployables?hostname=${hostname}&resourceClass=FPGA`)).body.items[0];
    await eventually(async () => (await admin('GET', `/api/v1/deployables/${deployable.uuid}`)).body.attachHandles.filter((handle: { kind: string }) => handle.kind === 'VF').length === 2);

    // Step 6: the request, created from a profile naming the bitstream, with its unit of quota.
    const profile = await admin('POST', '/v2/device_profiles', [{ name: 'saga-dp', groups: [{ 'resources:FPGA': '1', 'accel:bitstream_id': accelerator.bitstreamId }] }]);
    expect(profile.status).toBe(201);
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova(), body: { device_profile_name: 'saga-dp' } });
    expect(created.status).toBe(201);
    const arq = created.body.arqs[0].uuid;
    expect((await store.readStream(`quota-${PROJECT}`)).map((event) => event.type)).toContain('quota.Reserved');

    // Steps 7–10: bind with a handle claimed, the region programmed and read back, the function probed, the request bound.
    const instance = randomUUID();
    const bound = await ledger.request('PATCH', '/v2/accelerator_requests', {
      token: nova(),
      body: {
        [arq]: [
          { op: 'add', path: '/hostname', value: hostname },
          { op: 'add', path: '/device_rp_uuid', value: deployable.rpUuid },
          { op: 'add', path: '/instance_uuid', value: instance },
        ],
      },
    });
    expect(bound.status).toBe(202);
    const bindStarted = (await store.readStream(arqStream(arq))).find((event) => event.type === 'allocation.ArqBindStarted')!;
    const bindId = (bindStarted.data as { bindId: string }).bindId;
    const bind: WorkflowView = (await admin('GET', `/api/v1/workflows/bind/${bindId}`)).body;
    expect([bind.status, stepsOf(bind)]).toEqual([
      'completed',
      [
        'start-bind/do: done',
        'carve-partition/do: skipped',
        'charge-capacity/do: skipped',
        'claim-handle/do: done',
        'reserve-slices/do: skipped',
        'program-region/do: done',
        'verify-access/do: done',
        'mark-bound/do: done',
      ],
    ]);
    expect((await typesOf(arqStream(arq))).slice(-2)).toEqual(['allocation.ArqBindStarted', 'allocation.ArqBound']);
    const probe = (await admin('GET', `/api/v1/jobs/${workflowJobId(`workflow-bind-${bindId}/verify-access/do/1`)}`)).body;
    expect(probe).toMatchObject({ kind: 'probe', state: 'completed' });
    await eventually(async () => (await typesOf(`device-${fpga}`)).includes('inventory.RegionProgrammed'));
    const deviceFacts = await typesOf(`device-${fpga}`);
    expect(deviceFacts.filter((type) => ['inventory.ShellProgrammed', 'inventory.VfsConfigured', 'inventory.AttachHandleClaimed', 'inventory.RegionProgrammed'].includes(type))).toEqual([
      'inventory.ShellProgrammed',
      'inventory.VfsConfigured',
      'inventory.AttachHandleClaimed',
      'inventory.RegionProgrammed',
    ]);
    // Provenance: the region holds the bitstream, loaded by this bind's workflow for the request's project.
    const fresh = { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(await store.headPosition()) } };
    const provenance = (await ledger.request('GET', `/api/v1/devices/${fpga}/provenance`, fresh)).body;
    expect(provenance.loads[0]).toMatchObject({
      bitstreamId: accelerator.bitstreamId,
      project: PROJECT,
      requestedBy: 'workflow:bind',
      correlationId: `workflow-bind-${bindId}`,
    });
    const v2 = await ledger.request('GET', `/v2/accelerator_requests/${arq}`, { token: nova() });
    expect(v2.body).toMatchObject({ state: 'Bound', instance_uuid: instance, device_rp_uuid: deployable.rpUuid });
    await eventually(async () => (await admin('GET', `/v2/deployables/${deployable.uuid}`)).body?.bitstream_id === accelerator.bitstreamId);
  }, 180_000);

  it('a host whose agent never answers (step 2) ends compensated: marked failed, nothing loaded, its providers reserved', async () => {
    const hostname = 'saga-agent-silent';
    const fpga = await hostWithAgent(hostname, { probe: 3 });
    const shell = await register('shell');
    const provision = await provisioned(hostname, shell.bitstreamId, 2);
    expect([provision.status, stepsOf(provision)]).toEqual([
      'compensated',
      ['register-host/do: done', 'agent-ready/do: failed', 'register-host/compensate: compensated'],
    ]);
    expect((await typesOf(`host-${hostname}`)).filter((type) => type.startsWith('inventory.HostProvision'))).toEqual([
      'inventory.HostProvisioningStarted',
      'inventory.HostProvisionFailed',
    ]);
    expect((await typesOf(`device-${fpga}`)).filter((type) => type === 'inventory.ShellProgrammed' || type === 'inventory.VfsConfigured')).toEqual([]);
    await eventually(async () => (await admin('GET', `/api/v1/hosts/${hostname}`)).body.status === 'provision-failed');
    // Out of service: Nova is offered none of its providers.
    expect(await reservedBecause(hostname)).toEqual([['out-of-service']]);
  }, 120_000);
});
