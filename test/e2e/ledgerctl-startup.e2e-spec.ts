import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Runs the compiled CLI (npm test builds first) with a preload that writes,
 * at exit, every module the process loaded: what a call costs at start-up.
 */
function modulesLoadedBy(directory: string, ...args: string[]): { code: number | null; stdout: string; modules: string[] } {
  const preload = join(directory, 'list-modules.js');
  const list = join(directory, 'modules.json');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(Object.keys(require.cache))));\n`);
  const result = spawnSync(process.execPath, ['-r', preload, join(ROOT, 'scripts', 'run.js'), 'ledgerctl', ...args], {
    cwd: ROOT,
    env: { ...process.env, LEDGER_DATA_DIR: directory },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, modules: JSON.parse(readFileSync(list, 'utf8')) as string[] };
}

const HEAVY = /node_modules\/(@nestjs|rxjs|pg|better-sqlite3|class-validator|class-transformer)\/|\/dist\/(projections|libs\/(eventstore|processing|inventory))\//;

describe('ledgerctl start-up', () => {
  let directory: string;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'ledgerctl-startup-'))));
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('issues a token without loading Nest, the store drivers or other commands', () => {
    const { code, stdout, modules } = modulesLoadedBy(directory, 'token', 'issue', '--user', 'u', '--project', 'p', '--role', 'member');
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(modules.filter((module) => HEAVY.test(module))).toEqual([]);
    expect(modules.filter((module) => /\/apps\/ledgerctl\/src\/commands\//.test(module)).map((module) => module.split('/').pop())).toEqual([
      'token-issue.command.js',
    ]);
  });

  it('lists every command in --help without loading any command file', () => {
    const { code, stdout, modules } = modulesLoadedBy(directory, '--help');
    expect(code).toBe(0);
    expect(stdout).toContain('audit ');
    expect(stdout).toContain('detach-instance [options] <device> <instance-uuid>');
    expect(modules.filter((module) => /\/apps\/ledgerctl\/src\/commands\/|node_modules\/@nestjs/.test(module))).toEqual([]);
  });
});
