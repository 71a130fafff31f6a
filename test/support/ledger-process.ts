import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { keepLog } from './kept-logs';

const ROOT = join(__dirname, '..', '..');
/** Interval between readiness probes while waiting for the process to come up. */
const POLL_MS = 50;

/** A ledger running as its own OS process (`node scripts/run.js ledger`), so a test can kill it. */
export interface LedgerProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** What the process printed (kept, not written to Jest's output: test/support/kept-logs.ts), for failure messages. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface LedgerProcessOptions {
  /**
   * How long to wait for /readyz (default 120 s): a safety net for a ledger
   * that never comes up, not an expectation; on a machine shared by many
   * test runs a start has taken over 30 s.
   */
  readonly readyTimeoutMs?: number;
  /**
   * Listen here instead of on a free port: a restarted ledger on the port of
   * the one killed keeps the URL its agents were given, and they reconnect.
   */
  readonly port?: number;
  /** What answering 200 means up: `/readyz` (default), or `/healthz` for a replica that cannot be ready on its own. */
  readonly upPath?: '/readyz' | '/healthz';
  /** Start it as a person does, with `npm start` (then `child` is npm's process), rather than `node scripts/run.js ledger`. */
  readonly viaNpm?: boolean;
}

/** Starts the compiled ledger (run `npm run build` first; `npm start` builds what changed itself) and resolves once /readyz (or `upPath`) answers 200. */
export async function startLedgerProcess(env: Record<string, string>, options: LedgerProcessOptions = {}): Promise<LedgerProcess> {
  const { readyTimeoutMs = 120_000 } = options;
  const port = options.port ?? (await freePort());
  const [command, args] = options.viaNpm ? ['npm', ['start']] : [process.execPath, [join(ROOT, 'scripts', 'run.js'), 'ledger']];
  const child = spawn(command, args, {
    cwd: ROOT,
    // Cleaning off unless a test turns it on, as in startTestLedger.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LEDGER_LOG_LEVEL: 'warn', LEDGER_CLEAN_DEVICE_TYPES: 'none', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = keepLog(`ledger process on port ${port}`);
  child.stdout?.on('data', (chunk: Buffer) => log.write(chunk));
  child.stderr?.on('data', (chunk: Buffer) => log.write(chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`ledger exited with ${child.exitCode} before it was ready:\n${log.text()}`);
    const ready = await fetch(`${url}${options.upPath ?? '/readyz'}`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`ledger was not ready within ${readyTimeoutMs} ms:\n${log.text()}`);
    }
    await delay(POLL_MS);
  }
  return {
    url,
    port,
    child,
    output: () => log.text(),
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
