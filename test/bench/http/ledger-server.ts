import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { loadOrCreateCredentials, type Principal } from '@ledger/auth';
import { dataFiles, loadLedgerConfig } from '@ledger/config';
import { processCpuSeconds } from './process-cpu';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const POLL_MS = 50;
/** The tail of the ledger's output kept for error messages. */
const OUTPUT_KEPT = 20_000;

/** A compiled ledger running as its own process on a fresh data directory, as the embedded setup runs it. */
export interface LedgerServer {
  readonly url: URL;
  readonly pid: number;
  /** The ledger's LEDGER_DATA_DIR (its SQLite files, its signing key): a temporary one is removed by `stop`, a shared one (`LedgerServerOptions.dataDir`) is not. */
  readonly dataDir: string;
  /** A token the ledger accepts (signed with the key it loaded from its data directory). */
  token(principal: Principal): string;
  /** CPU seconds the ledger process has used so far (all threads). */
  cpuSeconds(): number;
  /** With LEDGER_BENCH_PROFILE_DIR set: runs `work` under the ledger's CPU profiler, written to `<dir>/<name>.cpuprofile`. */
  profiled<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** SIGTERM (SIGKILL after 10 s), then the data directory is removed (unless it was given). */
  stop(): Promise<void>;
}

export interface LedgerServerOptions {
  /** A module of this folder to load first (`node -r`). */
  readonly preload?: 'no-log-context' | 'promise-count';
  /** A data directory shared with other replicas (its signing key made beforehand): used as is and left in place by `stop`. */
  readonly dataDir?: string;
  /** What answering 200 means up: `/readyz` (default), or `/healthz` for a replica that cannot be ready on its own. */
  readonly upPath?: '/readyz' | '/healthz';
}

/**
 * Starts `node scripts/run.js ledger` (run `npm run build` first) with
 * LEDGER_DATA_DIR in a new temporary directory (or `options.dataDir`), and
 * resolves once /readyz (or `options.upPath`) answers 200; `env` adds
 * settings. test/support/ledger-process.ts does the same for tests run
 * from source; from dist/ its path to scripts/run.js is wrong. Cleaning is
 * off unless `env` turns it on, as in the tests: the write-path benchmarks
 * rebind a device the moment it is released, and their agents run no jobs
 * (clean_cycle_ms measures the clean itself).
 */
export async function startLedgerServer(
  progress: (message: string) => void,
  env: Record<string, string> = {},
  options: LedgerServerOptions = {},
): Promise<LedgerServer> {
  const { preload } = options;
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ledger-bench-http-'));
  const removeDataDir = () => {
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const { codec } = loadOrCreateCredentials(dataFiles(loadLedgerConfig({ LEDGER_DATA_DIR: dataDir })));
  const port = await freePort();
  const profileDir = process.env.LEDGER_BENCH_PROFILE_DIR;
  const preloads = [...(profileDir ? ['cpu-profile'] : []), ...(preload ? [preload] : [])].flatMap((name) => ['-r', join(__dirname, `${name}.preload.js`)]);
  const child = spawn(process.execPath, [...preloads, join(repositoryRoot(), 'scripts', 'run.js'), 'ledger'], {
    cwd: repositoryRoot(),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LEDGER_LOG_LEVEL: 'warn', LEDGER_CLEAN_DEVICE_TYPES: 'none', LEDGER_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe', ...(profileDir ? (['ipc'] as const) : [])],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_KEPT));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // An interrupted or crashed benchmark must not leave a ledger running or its files behind.
  const killOnExit = () => {
    child.kill('SIGKILL');
    removeDataDir();
  };
  process.once('exit', killOnExit);
  const url = new URL(`http://127.0.0.1:${port}`);
  try {
    await waitUntilReady(child, new URL(options.upPath ?? '/readyz', url), () => output);
  } catch (error) {
    killOnExit();
    process.off('exit', killOnExit);
    throw error;
  }
  return {
    url,
    pid: child.pid as number,
    dataDir,
    token: (principal) => codec.issue(principal),
    cpuSeconds: () => processCpuSeconds(child.pid as number),
    profiled: (name, work) => (profileDir ? profile(child, name, work, progress) : work()),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', killOnExit);
      removeDataDir();
    },
  };
}

async function waitUntilReady(child: ChildProcess, upUrl: URL, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ledger exited with ${child.exitCode} before it was ready:\n${output()}`);
    if (await fetch(upUrl).then((reply) => reply.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`the ledger was not ready within ${READY_TIMEOUT_MS} ms:\n${output()}`);
    await delay(POLL_MS);
  }
}

async function profile<T>(child: ChildProcess, name: string, work: () => Promise<T>, progress: (message: string) => void): Promise<T> {
  const ask = async (message: object): Promise<{ file?: string; error?: string }> => {
    const answer = once(child, 'message') as Promise<[{ file?: string; error?: string }]>;
    child.send(message);
    const [reply] = await answer;
    if (reply.error) throw new Error(`ledger CPU profile: ${reply.error}`);
    return reply;
  };
  await ask({ profile: 'start' });
  const result = await work();
  const { file } = await ask({ profile: 'stop', name });
  progress(`ledger CPU profile of ${name}: ${file}`);
  return result;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** The directory holding scripts/run.js, found from this file whether it runs from dist/ or from source. */
/**
 * Runs `measure` against a fresh ledger process on the sqlite pass only (the
 * process runs its embedded setup whatever the pass: measuring it once is
 * enough), and stops it after; on other passes says `records` were skipped.
 */
export async function onLedgerProcess<T>(
  context: { readonly target: { readonly name: string }; progress(message: string): void },
  records: string,
  measure: (ledger: LedgerServer) => Promise<T[]>,
): Promise<T[]> {
  if (context.target.name !== 'sqlite') {
    context.progress(`${records}: skipped; the ledger process is measured in its embedded setup, on the sqlite pass`);
    return [];
  }
  const ledger = await startLedgerServer(context.progress);
  try {
    return await measure(ledger);
  } finally {
    await ledger.stop();
  }
}

export function repositoryRoot(): string {
  for (let directory = __dirname; ; directory = dirname(directory)) {
    if (existsSync(join(directory, 'scripts', 'run.js'))) return directory;
    if (dirname(directory) === directory) throw new Error(`scripts/run.js not found above ${__dirname}`);
  }
}
