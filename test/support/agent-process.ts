import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { keepLog } from './kept-logs';

const ROOT = join(__dirname, '..', '..');

/** The compiled agent (`node scripts/run.js agent`, run `npm run build` first) as its own OS process. */
export interface AgentProcess {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr interleaved (kept, not written to Jest's output: test/support/kept-logs.ts). */
  output(): string;
  /** Resolves once the output matches `pattern`; rejects if the process exits first or `timeoutMs` passes. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Sends `signal` and resolves with the exit code once it has exited. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code when it exits on its own. */
  exited(): Promise<number | null>;
}

/**
 * Starts the agent with `env` over this process's environment minus what
 * would point it elsewhere: AGENT_* settings and the clients' ledger
 * address (LEDGER_URL, PORT), so a test names its ledger as LEDGER_URL.
 */
export function startAgentProcess(env: Record<string, string>): AgentProcess {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AGENT_') && name !== 'LEDGER_URL' && name !== 'PORT'));
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'run.js'), 'agent'], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = keepLog(`agent ${env.AGENT_HOSTNAME ?? ''}`.trim());
  const output = () => log.text();
  const watchers = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    log.write(chunk);
    for (const watcher of watchers) watcher();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exit = once(child, 'exit').then(([code]) => code as number | null);

  return {
    child,
    output,
    waitForOutput(pattern, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          watchers.delete(check);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (pattern.test(output())) done();
        };
        const timer = setTimeout(() => done(new Error(`agent output did not match ${pattern} within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
        exit.then((code) => done(pattern.test(output()) ? undefined : new Error(`agent exited (${code}) before printing ${pattern}:\n${output()}`)));
        watchers.add(check);
        check();
      });
    },
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exit;
    },
    exited: () => exit,
  };
}
