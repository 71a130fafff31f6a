import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from './ledger-process';

/**
 * A real OpenStack Placement (Debian's python3-placement 8.0.0) for tests
 * and benchmarks, as DESIGN.md starts it: `placement-manage db sync` on a
 * config in a temporary directory (noauth2, SQLite), then `placement-api`
 * on a free loopback port with OS_PLACEMENT_CONFIG_DIR (it ignores
 * --config-file). Debian's scripts run with /usr/bin/python3: a pyenv python
 * lacks their modules.
 */
export const PLACEMENT_API = '/usr/bin/placement-api';
const PLACEMENT_MANAGE = '/usr/bin/placement-manage';
const PYTHON = '/usr/bin/python3';
/** Start-up (Python imports, the standard traits synced into the database) takes 3–8 s on a loaded machine. */
const READY_TIMEOUT_MS = 60_000;

export interface PlacementService {
  readonly url: string;
  readonly pid: number | undefined;
  /** Kills the server; the database stays, so `start` brings back the same Placement. */
  stop(): Promise<void>;
  /** Starts it again on the same port and database. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

/** Why a real Placement cannot be started here, or undefined when it can. */
export function placementMissing(): string | undefined {
  for (const file of [PLACEMENT_API, PLACEMENT_MANAGE, PYTHON]) if (!existsSync(file)) return `${file} is missing; install Debian's python3-placement`;
  return undefined;
}

/** A Placement with an empty database, ready to answer. */
/** Tries at binding the service's port while another process holds it. */
const PORT_TAKEN_ATTEMPTS = 20;
const PORT_TAKEN_RETRY_MS = 250;

export async function startPlacementService(): Promise<PlacementService> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-placement-'));
  const config = join(dir, 'placement.conf');
  writeFileSync(
    config,
    ['[DEFAULT]', 'debug = false', '[api]', 'auth_strategy = noauth2', '[placement_database]', `connection = sqlite:///${join(dir, 'placement.sqlite')}`, ''].join('\n'),
  );
  await run(PYTHON, [PLACEMENT_MANAGE, '--config-file', config, 'db', 'sync'], dir);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = join(dir, 'placement-api.log');
  let child: ChildProcess | undefined;

  const service: PlacementService = {
    url,
    get pid() {
      return child?.pid;
    },
    async start() {
      // A restart (a suite's outage) binds the same port, which another process's free-port probe may hold
      // for a moment: try again while the port is taken, a few seconds at most.
      for (let attempt = 1; ; attempt++) {
        const out = openSync(log, 'a');
        child = spawn(PYTHON, [PLACEMENT_API, '--host', '127.0.0.1', '--port', String(port)], {
          cwd: dir,
          env: pythonEnv({ OS_PLACEMENT_CONFIG_DIR: dir }),
          stdio: ['ignore', out, out],
        });
        closeSync(out);
        // A run that dies without its teardown must not leave Placement behind.
        const started = child;
        process.once('exit', () => started.kill('SIGKILL'));
        try {
          return await waitUntilAnswering(url, child, log);
        } catch (error) {
          if (!/Address already in use/.test((error as Error).message) || attempt >= PORT_TAKEN_ATTEMPTS) throw error;
          await delay(PORT_TAKEN_RETRY_MS);
        }
      }
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      await exited;
    },
    async dispose() {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await service.start();
  } catch (error) {
    await service.dispose();
    throw error;
  }
  return service;
}

async function waitUntilAnswering(url: string, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`placement-api exited with ${child.exitCode}: ${tail(log)}`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await delay(100);
  }
  child.kill('SIGKILL');
  throw new Error(`placement-api did not answer at ${url} within ${READY_TIMEOUT_MS} ms: ${tail(log)}`);
}

/** Debian's python must not see a pyenv's or virtualenv's settings. */
function pythonEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PYENV_VERSION']) delete env[name];
  return env;
}

function run(file: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { cwd, env: pythonEnv({}), timeout: READY_TIMEOUT_MS }, (error, _stdout, stderr) =>
      error ? reject(new Error(`${args.slice(0, 1).join(' ')} failed: ${error.message.split('\n')[0]} ${stderr.slice(-500)}`)) : resolve(),
    ),
  );
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-1000);
  } catch {
    return '(no log)';
  }
}
