import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { hostReportBody, hostname } from './fleet';

const ROOT = join(__dirname, '..', '..');

/** A host report the ledger acknowledged, and the log position it answered with. */
export interface ReportAck {
  readonly hostname: string;
  readonly position: number;
}

export interface ReportWriters {
  /** Every acknowledged report so far, in the order the answers came. */
  readonly acks: readonly ReportAck[];
  /** Stops the writers after their current report and waits for them; rejects if one was refused. */
  stop(): Promise<void>;
}

/**
 * Clients that keep reporting new hosts until stopped: the writes a backup
 * is taken under. Each report names a host never reported before, so which
 * of them a restored ledger serves tells which the backup holds.
 */
export function startReportWriters(url: string, token: string, count: number): ReportWriters {
  const acks: ReportAck[] = [];
  let writing = true;
  const writer = async (index: number) => {
    for (let generation = 0; writing; generation++) {
      const host = hostname(index * 1000 + generation);
      const response = await fetch(`${url}/api/v1/hosts/${host}/report`, {
        method: 'PUT',
        headers: { 'x-auth-token': token, 'content-type': 'application/json' },
        body: JSON.stringify(hostReportBody(index, generation)),
      });
      if (response.status !== 200) throw new Error(`report refused: ${response.status} ${await response.text()}`);
      acks.push({ hostname: host, position: ((await response.json()) as { position: number }).position });
    }
  };
  const writers = Promise.all(Array.from({ length: count }, (_, index) => writer(index)));
  writers.catch(() => (writing = false));
  return {
    acks,
    async stop() {
      writing = false;
      await writers;
    },
  };
}

/** How many devices a ledger serves for `host`, once its read models hold position `atLeast`. */
export async function devicesServed(url: string, token: string, host: string, atLeast: number): Promise<number> {
  const response = await fetch(`${url}/api/v1/devices?hostname=${host}`, {
    headers: { 'x-auth-token': token, 'x-ledger-min-position': String(atLeast) },
  });
  if (response.status !== 200) throw new Error(`devices of ${host}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { items: unknown[] }).items.length;
}

export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end without blocking this process (writers keep going meanwhile). */
export async function runProcess(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ProcessResult> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** The compiled CLI as its own process (`npm run build` first), with `env` on top of this process's. */
export function ledgerctlProcess(env: Record<string, string>, ...args: string[]): Promise<ProcessResult> {
  return runProcess(process.execPath, [join(ROOT, 'scripts', 'run.js'), 'ledgerctl', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
}
