import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlaybookOutcome, PlaybookRun } from '../../ansible/ansible-runner';
import { DriverOperationError, type JobParams } from '../../drivers/accelerator-driver';
import { HostDiscovery } from '../host-discovery';
import type { JobOffer } from '../protocol';
import { collectingLogger, FakeDriver, fakeFpga } from '../testing/fake-driver';
import { JobRunner } from './job-runner';

const IMAGE = Buffer.from('bitstream-bytes');
const IMAGE_SHA256 = createHash('sha256').update(IMAGE).digest('hex');
const IMAGE_SHA512 = createHash('sha512').update(IMAGE).digest('hex');
const IMAGE_UUID = '6f1d2f9e-35a8-4b8e-9c39-0d7a1b0b2a10';

/** Where the ledger serves a registered bitstream's bytes to agents. */
const LEDGER_IMAGE_PATH = '/api/v1/bitstreams/0195a1b2-0000-7000-8000-000000000001/content';
const LEDGER_RESTARTING_PATH = '/api/v1/bitstreams/0195a1b2-0000-7000-8000-000000000002/content';

describe('JobRunner', () => {
  let stateDir: string;
  let server: Server;
  let imageUrl: string;
  let fpga: FakeDriver;
  let playbookRuns: PlaybookRun[];
  let playbookOutcome: Partial<PlaybookOutcome>;
  let reportsAsked: number;
  let reportsAfterDelivery: string[];
  let imageServiceUrl: string;
  let seenImageOnProgram: string | undefined;
  let imageTokens: (string | undefined)[];
  let restartingAnswers = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      // A ledger restarting: 503 twice, then the image.
      if (request.url === LEDGER_RESTARTING_PATH && restartingAnswers++ < 2) return response.writeHead(503).end();
      if (request.url === '/bitstream.gbs' || request.url === LEDGER_IMAGE_PATH || request.url === LEDGER_RESTARTING_PATH) {
        imageTokens.push(request.headers['x-auth-token'] as string | undefined);
        return response.writeHead(200).end(IMAGE);
      }
      if (request.url === `/glance/v2/images/${IMAGE_UUID}`) {
        return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: IMAGE_UUID, os_hash_algo: 'sha512', os_hash_value: IMAGE_SHA512 }));
      }
      if (request.url === `/glance/v2/images/${IMAGE_UUID}/file`) return response.writeHead(200).end(IMAGE);
      response.writeHead(404).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    imageUrl = `${base}/bitstream.gbs`;
    imageServiceUrl = `${base}/glance`;
  });
  // The clients' keep-alive connections would hold the server (and Jest's worker) open for seconds after the file.
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'agent-jobs-'));
    playbookRuns = [];
    playbookOutcome = { exitCode: 0, recap: { ok: 3, changed: 1, unreachable: 0, failed: 0, skipped: 0, rescued: 0, ignored: 0 } };
    reportsAsked = 0;
    reportsAfterDelivery = [];
    seenImageOnProgram = undefined;
    imageTokens = [];
    fpga = new FakeDriver('intel-fpga', [fakeFpga('0000:5e:00.0')], {
      program: async (params: JobParams) => {
        const image = params.image as { url: string; sha256: string };
        seenImageOnProgram = readFileSync(fileURLToPath(image.url), 'utf8');
        return { functionId: 'f-new', sha256: image.sha256, previousFunctionId: 'f-old' };
      },
      configureVfs: async (params: JobParams) => ({ numVfs: params.numVfs }),
    });
  });
  afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

  const runner = async (drivers = [fpga], playbookDir = join(stateDir, 'playbooks'), ledger?: { urls: string[]; token: string }) => {
    const discovery = new HostDiscovery('compute-1', drivers, collectingLogger());
    await discovery.discover();
    return new JobRunner({
      discovery,
      ansible: {
        run: async (run: PlaybookRun) => {
          playbookRuns.push(run);
          return { exitCode: 0, timedOut: false, recap: null, outputTail: '', durationMs: 1, ...playbookOutcome };
        },
      },
      images: { stateDir, imageServiceUrl, ledger: ledger && { urls: () => ledger.urls, token: ledger.token } },
      playbookDir,
      sandboxRoot: '/tmp/sandbox',
      reportNow: () => reportsAsked++,
      reportOnceDelivered: (jobId) => reportsAfterDelivery.push(jobId),
      logger: collectingLogger(),
    });
  };
  const job = (kind: string, params: Record<string, unknown>, timeoutSeconds = 60): JobOffer => ({
    jobId: '0191e0c4-0000-7000-8000-000000000001',
    kind,
    params,
    timeoutSeconds,
    requestedAt: '2026-01-01T00:00:00Z',
  });

  it('runs a device job on the driver that discovered the device, with its evidence', async () => {
    const result = await (await runner()).run(job('configure-vfs', { deviceUuid: 'd', pciAddress: '0000:5E:00.0', numVfs: 4 }));
    expect(result).toEqual({ outcome: 'completed', evidence: { numVfs: 4 } });
    expect(fpga.calls).toEqual([{ operation: 'configureVfs', params: { deviceUuid: 'd', pciAddress: '0000:5E:00.0', numVfs: 4 } }]);
  });

  it('downloads and verifies a program image before the driver sees it, then removes it', async () => {
    const result = await (await runner()).run(job('program', { pciAddress: '0000:5e:00.0', image: { url: imageUrl, sha256: IMAGE_SHA256.toUpperCase() } }));
    expect(result).toEqual({ outcome: 'completed', evidence: { functionId: 'f-new', sha256: IMAGE_SHA256, previousFunctionId: 'f-old' } });
    expect(seenImageOnProgram).toBe('bitstream-bytes');
    expect(readdirSync(join(stateDir, 'images'))).toEqual([]);
  });

  it("fetches a registered bitstream's ledger path from its own ledger with its credential, and sends the credential to no other server", async () => {
    const own = { urls: [new URL(imageUrl).origin], token: 'agent-token' };
    const onLedger = job('program', { pciAddress: '0000:5e:00.0', image: { url: LEDGER_IMAGE_PATH, sha256: IMAGE_SHA256 } });
    expect((await (await runner(undefined, undefined, own)).run(onLedger)).outcome).toBe('completed');
    const elsewhere = job('program', { pciAddress: '0000:5e:00.0', image: { url: imageUrl, sha256: IMAGE_SHA256 } });
    expect((await (await runner(undefined, undefined, { urls: ['http://127.0.0.1:1'], token: 'agent-token' })).run(elsewhere)).outcome).toBe('completed');
    expect(imageTokens).toEqual(['agent-token', undefined]);
  });

  it("fetches a ledger path from the agent's next ledger address at once when the one in use is down", async () => {
    const replicas = { urls: ['http://127.0.0.1:1', new URL(imageUrl).origin], token: 'agent-token' };
    const started = Date.now();
    const onLedger = job('program', { pciAddress: '0000:5e:00.0', image: { url: LEDGER_IMAGE_PATH, sha256: IMAGE_SHA256 } });
    expect((await (await runner(undefined, undefined, replicas)).run(onLedger)).outcome).toBe('completed');
    expect(imageTokens).toEqual(['agent-token']);
    // Without a backoff round: the first one waits 1 s.
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits for its own ledger while it answers 5xx (a restart), then fetches the image', async () => {
    const own = { urls: [new URL(imageUrl).origin], token: 'agent-token' };
    const program = job('program', { pciAddress: '0000:5e:00.0', image: { url: LEDGER_RESTARTING_PATH, sha256: IMAGE_SHA256 } });
    expect((await (await runner(undefined, undefined, own)).run(program)).outcome).toBe('completed');
    expect(restartingAnswers).toBe(3);
  });

  it('resolves image.imageUuid through the image service and checks its sha512', async () => {
    const result = await (await runner()).run(job('program', { pciAddress: '0000:5e:00.0', image: { imageUuid: IMAGE_UUID } }));
    expect(result).toMatchObject({ outcome: 'completed', evidence: { sha256: IMAGE_SHA256 } });
  });

  it('fails a program job whose image does not match without touching the device', async () => {
    const wrong = 'ab'.repeat(32);
    const result = await (await runner()).run(job('program', { pciAddress: '0000:5e:00.0', image: { url: imageUrl, sha256: wrong } }));
    expect(result).toEqual({
      outcome: 'failed',
      code: 'JOB.IMAGE_CHECKSUM_MISMATCH',
      reason: expect.stringContaining('the device was not touched'),
      evidence: { algorithm: 'sha256', expected: wrong, actual: IMAGE_SHA256, deviceState: 'unchanged' },
    });
    expect(fpga.calls).toEqual([]);
    expect(readdirSync(join(stateDir, 'images'))).toEqual([]);
  });

  it.each([
    [{ pciAddress: '0000:5e:00.0', image: { url: 'http://127.0.0.1:1/none', sha256: IMAGE_SHA256 } }, 'JOB.IMAGE_UNAVAILABLE'],
    [{ pciAddress: '0000:5e:00.0', image: { url: 'file:///etc/passwd', sha256: IMAGE_SHA256 } }, 'JOB.PARAMS_INVALID'],
    [{ pciAddress: '0000:5e:00.0', image: { url: 'http://x/y', sha256: 'short' } }, 'JOB.PARAMS_INVALID'],
    [{ pciAddress: '0000:5e:00.0' }, 'JOB.PARAMS_INVALID'],
    [{ pciAddress: '0000:5e:00.0', image: { imageUuid: '00000000-0000-4000-8000-000000000000' } }, 'JOB.IMAGE_UNAVAILABLE'],
    [{ pciAddress: '0000:5e:00.0', image: { imageUuid: '../../etc' } }, 'JOB.PARAMS_INVALID'],
  ])('fails a program job with %j as %s, leaving the device alone', async (params, code) => {
    const result = await (await runner()).run(job('program', params));
    expect(result).toMatchObject({ outcome: 'failed', code, evidence: { deviceState: 'unchanged' } });
    expect(fpga.calls).toEqual([]);
  });

  it('records a DriverOperationError with its code, reason and the state the device was left in', async () => {
    fpga.program = async () => {
      throw new DriverOperationError('FPGA.PROGRAM_FAILED', 'fpgaconf exited with 1', 'previous function restored', { previousFunctionId: 'f-old' });
    };
    const result = await (await runner()).run(job('program', { pciAddress: '0000:5e:00.0', image: { url: imageUrl, sha256: IMAGE_SHA256 } }));
    expect(result).toEqual({
      outcome: 'failed',
      code: 'FPGA.PROGRAM_FAILED',
      reason: 'fpgaconf exited with 1',
      evidence: { previousFunctionId: 'f-old', deviceState: 'previous function restored' },
    });
    expect(readdirSync(join(stateDir, 'images'))).toEqual([]);
  });

  it.each([
    ['unknown kind', job('reflash-bios', { pciAddress: '0000:5e:00.0' }), 'JOB.UNSUPPORTED'],
    ['operation the driver lacks', job('create-mdev', { pciAddress: '0000:5e:00.0', mdevType: 'x', mdevUuid: 'u' }), 'JOB.UNSUPPORTED'],
    ['device nobody discovered', job('configure-vfs', { pciAddress: '0000:99:00.0', numVfs: 1 }), 'JOB.DEVICE_UNKNOWN'],
    ['missing pciAddress', job('attach', { deviceUuid: 'd' }), 'JOB.PARAMS_INVALID'],
  ])('fails a job for an %s', async (_, offer, code) => {
    expect(await (await runner()).run(offer)).toMatchObject({ outcome: 'failed', code });
  });

  it('finds a device that appeared since the last discovery', async () => {
    const run = await runner();
    fpga.devices = [...fpga.devices, fakeFpga('0000:af:00.0')];
    expect(await run.run(job('configure-vfs', { pciAddress: '0000:af:00.0', numVfs: 2 }))).toEqual({ outcome: 'completed', evidence: { numVfs: 2 } });
  });

  it('fails a driver operation that outlives the job timeout, and a driver bug, with the device state unknown', async () => {
    fpga.configureVfs = () => new Promise(() => undefined);
    const run = await runner();
    expect(await run.run(job('configure-vfs', { pciAddress: '0000:5e:00.0', numVfs: 1 }, 0.05))).toMatchObject({
      outcome: 'failed',
      code: 'JOB.TIMED_OUT',
      evidence: { deviceState: expect.stringMatching(/^unknown/) },
    });
    fpga.configureVfs = async () => {
      throw new TypeError('undefined is not a function');
    };
    expect(await run.run(job('configure-vfs', { pciAddress: '0000:5e:00.0', numVfs: 1 }))).toEqual({
      outcome: 'failed',
      code: 'JOB.AGENT_ERROR',
      reason: 'the driver failed unexpectedly: undefined is not a function',
      evidence: { deviceState: 'unknown' },
    });
  });

  it('answers a discover job with the device count and asks for a fresh report', async () => {
    expect(await (await runner()).run(job('discover', {}))).toEqual({ outcome: 'completed', evidence: { devices: 1 } });
    expect(reportsAsked).toBe(1);
  });

  it('asks for a fresh report after a carve or destroy once its result is delivered, not before (the bind claims first)', async () => {
    const carve = job('carve', { deviceUuid: '7c4f0e2a-1b3c-4d5e-8f6a-7b8c9d0e1f2a', pciAddress: '0000:5e:00.0', profile: '1g.10gb', profileId: 19, start: 0, bindId: 'b' });
    await (await runner()).run(carve);
    expect([reportsAsked, reportsAfterDelivery]).toEqual([0, [carve.jobId]]);
  });

  describe('driver software', () => {
    const playbookDir = () => join(stateDir, 'playbooks');
    beforeEach(() => {
      mkdirSync(join(playbookDir(), 'nvidia-gpu'), { recursive: true });
      writeFileSync(join(playbookDir(), 'nvidia-gpu', 'install.yml'), '- hosts: localhost\n');
      writeFileSync(join(playbookDir(), 'nvidia-gpu', 'uninstall.yml'), '- hosts: localhost\n');
    });

    it('runs the install playbook with sandbox_root and driver_version, and the recap as evidence', async () => {
      const result = await (await runner()).run(job('install-driver', { driver: 'nvidia-gpu', version: '550.54.15' }, 120));
      expect(playbookRuns).toEqual([
        { playbook: join(playbookDir(), 'nvidia-gpu', 'install.yml'), extraVars: { sandbox_root: '/tmp/sandbox', driver_version: '550.54.15' }, timeoutMs: 120_000 },
      ]);
      expect(result).toEqual({
        outcome: 'completed',
        evidence: {
          driver: 'nvidia-gpu',
          operation: 'install',
          version: '550.54.15',
          playbook: join(playbookDir(), 'nvidia-gpu', 'install.yml'),
          recap: playbookOutcome.recap,
        },
      });
    });

    it("uses an enabled driver's own playbooks, uninstall for uninstall-driver, and no driver_version when none is asked for", async () => {
      const own = join(stateDir, 'own-uninstall.yml');
      writeFileSync(own, '- hosts: localhost\n');
      const gpu = new FakeDriver('nvidia-gpu');
      (gpu as { playbooks: object }).playbooks = { install: own, uninstall: own };
      await (await runner([gpu])).run(job('uninstall-driver', { driver: 'nvidia-gpu' }));
      expect(playbookRuns[0]).toMatchObject({ playbook: own, extraVars: { sandbox_root: '/tmp/sandbox' } });
    });

    it('fails with the recap and the tail of the output when the playbook fails or times out', async () => {
      playbookOutcome = { exitCode: 2, recap: { ok: 1, changed: 0, unreachable: 0, failed: 1, skipped: 0, rescued: 0, ignored: 0 }, outputTail: 'fatal: [localhost]: FAILED!' };
      const failed = await (await runner()).run(job('update-driver', { driver: 'nvidia-gpu', version: '560.0' }));
      expect(failed).toMatchObject({
        outcome: 'failed',
        code: 'JOB.PLAYBOOK_FAILED',
        reason: 'the install playbook of nvidia-gpu failed: ansible-playbook exited with 2',
        evidence: { recap: { failed: 1 }, exitCode: 2, outputTail: 'fatal: [localhost]: FAILED!' },
      });
      playbookOutcome = { exitCode: null, timedOut: true, recap: null, outputTail: 'TASK [slow]' };
      expect(await (await runner()).run(job('install-driver', { driver: 'nvidia-gpu' }))).toMatchObject({ outcome: 'failed', code: 'JOB.TIMED_OUT' });
    });

    it.each([
      [{ driver: 'amd-gpu' }, 'JOB.PARAMS_INVALID'],
      [{ driver: 'nvidia-gpu', version: '1.0; rm -rf /' }, 'JOB.PARAMS_INVALID'],
      [{ driver: 'intel-qat' }, 'JOB.UNSUPPORTED'],
    ])('refuses %j as %s without running anything', async (params, code) => {
      expect(await (await runner()).run(job('install-driver', params))).toMatchObject({ outcome: 'failed', code });
      expect(playbookRuns).toEqual([]);
      expect(existsSync(join(stateDir, 'images'))).toBe(false);
    });
  });
});
