import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Debian's scripts run with /usr/bin/python3: a pyenv python lacks their modules. */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** Start-up (Python imports, a database brought up to date) takes 3–8 s on a loaded machine. */
const READY_TIMEOUT_MS = 60_000;
/** Tries at binding the service's port while another process holds it. */
const PORT_TAKEN_ATTEMPTS = 20;
const PORT_TAKEN_RETRY_MS = 250;

/** One of OpenStack's Python services (Placement, Keystone) serving HTTP from a child process that tests stop and start. */
export interface PythonService {
  readonly pid: number | undefined;
  /** Starts it (again, after `stop`) on the same port and database, and waits until it answers. */
  start(): Promise<void>;
  /** Kills the server; its database stays, so `start` brings back the same service. */
  stop(): Promise<void>;
}

export interface PythonServiceOptions {
  /** For messages: `placement-api`, `keystone`. */
  readonly name: string;
  /** Its directory: the log goes there as `<name>.log`. */
  readonly dir: string;
  /** What to run under Debian's python. */
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
  /** Answers 2xx once the service is up. */
  readonly readyUrl: string;
}

export function pythonService(options: PythonServiceOptions): PythonService {
  const log = join(options.dir, `${options.name}.log`);
  let child: ChildProcess | undefined;
  return {
    get pid() {
      return child?.pid;
    },
    async start() {
      // A restart (a suite's outage) binds the same port, which another process's free-port probe may hold
      // for a moment: try again while the port is taken, a few seconds at most.
      for (let attempt = 1; ; attempt++) {
        const out = openSync(log, 'a');
        child = spawn(DEBIAN_PYTHON, [...options.args], { cwd: options.dir, env: pythonEnv(options.env ?? {}), stdio: ['ignore', out, out] });
        closeSync(out);
        // A run that dies without its teardown must not leave the service behind.
        const started = child;
        process.once('exit', () => started.kill('SIGKILL'));
        try {
          return await waitUntilAnswering(options.name, options.readyUrl, child, log);
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
  };
}

/** Runs one of Debian's Python tools (a `db sync`, a `bootstrap`) to completion. */
export function runPython(args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(DEBIAN_PYTHON, [...args], { cwd, env: pythonEnv({}), timeout: READY_TIMEOUT_MS }, (error, stdout, stderr) =>
      error ? reject(new Error(`${args.slice(0, 2).join(' ')} failed: ${error.message.split('\n')[0]} ${stderr.slice(-500)}`)) : resolve(stdout),
    ),
  );
}

async function waitUntilAnswering(name: string, url: string, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${tail(log)}`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await delay(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not answer at ${url} within ${READY_TIMEOUT_MS} ms: ${tail(log)}`);
}

/** Debian's python must not see a pyenv's or virtualenv's settings. */
function pythonEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PYENV_VERSION']) delete env[name];
  return env;
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-1000);
  } catch {
    return '(no log)';
  }
}
