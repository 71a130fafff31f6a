import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@ledger/processing/testing';
import { startAgentProcess } from '../support/agent-process';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

const ROOT = join(__dirname, '..', '..');
const PRELOAD = join(__dirname, '..', 'support', 'required-modules.preload.js');

/** The files in `require.cache` when the process exited, as the preload wrote them. */
const requiredModules = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');

/** The @nestjs packages among `modules`, each named once. */
const nestPackages = (modules: readonly string[]): string[] => [...new Set(modules.flatMap((file) => /\/node_modules\/(@nestjs\/[^/]+)\//.exec(file)?.[1] ?? []))];

/**
 * The agent runs on every host and the projections in every processors
 * replica: neither needs Nest, and loading it costs start-up time and memory
 * on each (docs/architecture.md, "A context's two faces"). Run against the
 * compiled build, as deployed.
 */
describe('processes that must not load Nest', () => {
  let dir: string;
  let ledger: TestLedger | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-nest-free-'));
  });
  afterEach(async () => {
    await ledger?.close();
    ledger = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('the agent reports its host and heartbeats with no @nestjs module in require.cache', async () => {
    const HOST = 'nest-free-agent';
    ledger = await startTestLedger();
    const modulesFile = join(dir, 'agent-modules.txt');
    const agent = startAgentProcess({
      LEDGER_URL: ledger.url,
      AGENT_TOKEN: ledger.token({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST }),
      AGENT_HOSTNAME: HOST,
      AGENT_STATE_DIR: join(dir, 'state'),
      AGENT_DRIVERS: 'simulated',
      AGENT_HEARTBEAT_INTERVAL_S: '1',
      NODE_OPTIONS: `--require ${PRELOAD}`,
      LEDGER_TEST_REQUIRED_MODULES: modulesFile,
    });
    try {
      const test = ledger;
      await eventually(async () => (await test.request('GET', `/api/v1/hosts/${HOST}/telemetry`, { token: test.adminToken })).body?.agentVersion !== undefined);
      expect((await test.request('GET', `/api/v1/devices?hostname=${HOST}`, { token: test.adminToken })).body.items.length).toBeGreaterThan(0);
    } finally {
      expect(await agent.stop('SIGTERM')).toBe(0);
    }
    const modules = requiredModules(modulesFile);
    expect(modules).toContain(join(ROOT, 'dist', 'apps', 'agent', 'src', 'main.js'));
    expect(nestPackages(modules)).toEqual([]);
  });

  it('every projection loads with no @nestjs module in require.cache', () => {
    const projections = readdirSync(join(ROOT, 'dist', 'projections'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(ROOT, 'dist', 'projections', entry.name, 'index.js'));
    expect(projections.length).toBeGreaterThan(5);
    const modulesFile = join(dir, 'projection-modules.txt');
    execFileSync(process.execPath, ['--require', PRELOAD, '-e', `for (const file of ${JSON.stringify(projections)}) require(file);`], {
      env: { ...process.env, LEDGER_TEST_REQUIRED_MODULES: modulesFile },
    });
    const modules = requiredModules(modulesFile);
    expect(modules).toEqual(expect.arrayContaining(projections));
    expect(nestPackages(modules)).toEqual([]);
  });
});
