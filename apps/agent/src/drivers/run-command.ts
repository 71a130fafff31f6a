import { spawn } from 'node:child_process';

export interface RunCommandOptions {
  /** After this long the command (and every process it started) is stopped and the run counts as timed out. */
  readonly timeoutMs: number;
  /** The environment; default the agent's own. */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Output kept per stream; the rest is dropped from the front (the end says why a tool failed). Default 1 MiB. */
  readonly maxOutputChars?: number;
}

export interface CommandResult {
  /** Exit status; null when killed or never started. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Why it could not start (`ENOENT`: no such program), when it did not. */
  readonly spawnError?: string;
}

/** Runs a program without a shell and never throws: every outcome is a CommandResult. */
export type RunCommand = (command: string, args: readonly string[], options: RunCommandOptions) => Promise<CommandResult>;

/** After SIGTERM on timeout, how long the command gets before SIGKILL. */
const KILL_GRACE_MS = 2_000;

/**
 * The child_process wrapper drivers call vendor tools through (nvidia-smi,
 * fpgaconf, xbmgmt). The command runs in its own process group so a timeout
 * stops its children too: a hung flash tool must not outlive its job.
 */
export const runCommand: RunCommand = (command, args, options) =>
  new Promise((resolve) => {
    const limit = options.maxOutputChars ?? 1_048_576;
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const finish = (result: CommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killer);
      resolve(result);
    };
    const child = spawn(command, [...args], { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.on('data', (chunk: Buffer) => (stdout = keepTail(stdout + chunk.toString('utf8'), limit)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = keepTail(stderr + chunk.toString('utf8'), limit)));
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup('SIGTERM');
      killer = setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS);
    }, options.timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish({ exitCode: null, signal: null, stdout, stderr, timedOut, spawnError: error.code ?? error.message }),
    );
    child.on('close', (exitCode, signal) => finish({ exitCode, signal, stdout, stderr, timedOut }));
  });

const keepTail = (text: string, limit: number): string => (text.length > limit ? text.slice(text.length - limit) : text);

/** One line saying how a run that did not exit 0 ended, for errors and evidence. */
export function describeCommandFailure(command: string, result: CommandResult): string {
  if (result.spawnError !== undefined) return `${command} could not be started (${result.spawnError})`;
  if (result.timedOut) return `${command} timed out and was stopped`;
  const lastLine = (result.stderr.trim() || result.stdout.trim()).split('\n').pop()?.trim();
  const ending = result.exitCode !== null ? `exited with ${result.exitCode}` : `was killed by ${result.signal}`;
  return lastLine ? `${command} ${ending}: ${lastLine}` : `${command} ${ending}`;
}
