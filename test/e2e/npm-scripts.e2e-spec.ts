import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '@ledger/processing/testing';
import { startLedgerProcess } from '../support/ledger-process';

/**
 * The npm scripts as a newcomer meets them: what `npm ci` shows while a
 * dependency compiles, stopping `npm start` by killing npm's own process
 * (what a service manager or `kill %1` in a script does), and
 * `npm run agent -- --help`.
 */
const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

const answers = (url: string) => fetch(`${url}/healthz`).then(() => true, () => false);

describe('stopping `npm start` through npm (`npm run build` first)', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'ledger-npm-start-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  // SIGTERM and SIGINT npm forwards to its script; SIGHUP it does not, and a SIGKILLed npm forwards nothing.
  it.each(['SIGTERM', 'SIGHUP', 'SIGKILL'] as const)('%s to npm stops the ledger it started', async (signal) => {
    const ledger = await startLedgerProcess({ LEDGER_DATA_DIR: dataDir }, { viaNpm: true, readyTimeoutMs: 120_000 });
    try {
      await ledger.kill(signal);
      await eventually(async () => !(await answers(ledger.url)), 30_000);
    } finally {
      // The ledger, if npm left it running: its pid is in no handle the test holds, so find it by its port's owner.
      if (await answers(ledger.url)) await run('fuser', ['-k', '-TERM', `${ledger.port}/tcp`]).catch(() => undefined);
    }
  }, 180_000);

  it('runs every script that starts a process through `exec`, so no shell sits between npm and node to swallow a signal', () => {
    const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
    const launchers = Object.entries(scripts).filter(([, command]) => /scripts\/(run|demo)\.js/.test(command));
    expect(launchers.length).toBeGreaterThan(5);
    expect(launchers.filter(([, command]) => !command.startsWith('exec node ')).map(([name]) => name)).toEqual([]);
  });
});

describe('npm run agent -- --help', () => {
  it('prints the usage and where every setting is documented, and exits 0', async () => {
    const { stdout } = await run('npm', ['run', 'agent', '--', '--help'], { cwd: ROOT, env: { ...process.env, AGENT_TOKEN: '' } });
    expect(stdout).toMatch(/^usage: npm run agent/m);
    expect(stdout).toContain('AGENT_TOKEN');
    expect(stdout).toContain('apps/agent/README.md');
  }, 60_000);
});

describe("npm ci with the repository's .npmrc", () => {
  let project: string;
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'ledger-npmrc-'));
    // A dependency that builds at install, as better-sqlite3 does when no prebuilt binary can be downloaded.
    const dependency = join(project, 'compiles-at-install');
    mkdirSync(dependency);
    const compile = "node -e \"console.log('compiling the native addon')\"";
    writeFileSync(join(dependency, 'package.json'), JSON.stringify({ name: 'compiles-at-install', version: '1.0.0', scripts: { install: compile } }));
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'newcomer', version: '1.0.0', dependencies: { 'compiles-at-install': 'file:compiles-at-install' }, scripts: { hello: 'echo hello' } }),
    );
    cpSync(join(ROOT, '.npmrc'), join(project, '.npmrc'));
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("shows a dependency's build output while it installs, and `npm run` still prints only the script's output", async () => {
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: project });
    const install = await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: project });
    expect(install.stdout + install.stderr).toContain('compiling the native addon');
    const script = await run('npm', ['run', 'hello'], { cwd: project });
    expect(script.stdout).toBe('hello\n');
  }, 120_000);
});
