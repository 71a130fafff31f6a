import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePlayRecap, type PlayRecap } from './play-recap';

/** How much of the output is kept as evidence of a failed run. */
const OUTPUT_TAIL_CHARS = 4_000;
/** The most output held in memory while a run goes on; older output is dropped (the recap is at the end). */
const OUTPUT_MAX_CHARS = 1_000_000;
/** After SIGTERM on timeout, how long ansible-playbook gets to stop before SIGKILL. */
const KILL_GRACE_MS = 5_000;

export interface AnsibleRunnerOptions {
  /** The executable: `ansible-playbook` on the PATH, or a path. */
  readonly executable: string;
  /** Ansible's config, home and temp directories are made under `<stateDir>/ansible`. */
  readonly stateDir: string;
}

export interface PlaybookRun {
  readonly playbook: string;
  /** Passed as one JSON `-e` argument, so values need no shell quoting. */
  readonly extraVars: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export interface PlaybookOutcome {
  /** Exit status; null when it was killed or could not start. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** Why it could not start (ENOENT: no ansible-playbook), if it did not. */
  readonly spawnError?: string;
  readonly recap: PlayRecap | null;
  /** The last few thousand characters of stdout and stderr. */
  readonly outputTail: string;
  readonly durationMs: number;
}

/**
 * Runs a playbook the way driver jobs do: `ansible-playbook -c local -i
 * localhost, <playbook> -e <vars>` on this host, isolated from the user's
 * Ansible setup (no ansible.cfg, no ANSIBLE_* from the agent's
 * environment, its own home and temp directories), colourless, bounded by a
 * timeout, with the PLAY RECAP parsed for the job's evidence.
 */
export class AnsibleRunner {
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: AnsibleRunnerOptions) {
    const root = join(options.stateDir, 'ansible');
    const tmp = join(root, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const config = join(root, 'ansible.cfg');
    writeFileSync(config, '# Written by the agent: driver playbooks run with Ansible defaults only.\n');
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ANSIBLE_')));
    this.env = {
      ...inherited,
      ANSIBLE_CONFIG: config,
      ANSIBLE_HOME: join(root, 'home'),
      ANSIBLE_LOCAL_TEMP: tmp,
      ANSIBLE_REMOTE_TEMP: tmp,
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_FORCE_COLOR: '0',
      ANSIBLE_RETRY_FILES_ENABLED: '0',
      ANSIBLE_PYTHON_INTERPRETER: 'auto_silent',
      ANSIBLE_STDOUT_CALLBACK: 'default',
      PYTHONUNBUFFERED: '1',
    };
  }

  run(run: PlaybookRun): Promise<PlaybookOutcome> {
    const started = Date.now();
    const args = ['-c', 'local', '-i', 'localhost,', run.playbook, '-e', JSON.stringify(run.extraVars)];
    return new Promise((resolve) => {
      let output = '';
      let timedOut = false;
      let settled = false;
      const child = spawn(this.options.executable, args, { env: this.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const collect = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.length > OUTPUT_MAX_CHARS) output = output.slice(-OUTPUT_MAX_CHARS / 2);
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      // The playbook's own children (package managers, scripts) are in its process group: stop them all.
      const timer = setTimeout(() => {
        timedOut = true;
        signalGroup(child.pid, 'SIGTERM');
        setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref();
      }, run.timeoutMs);
      const finish = (exitCode: number | null, spawnError?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({
          exitCode,
          timedOut,
          spawnError,
          recap: parsePlayRecap(output),
          outputTail: output.slice(-OUTPUT_TAIL_CHARS),
          durationMs: Date.now() - started,
        });
      };
      child.on('error', (error: NodeJS.ErrnoException) => finish(null, `${this.options.executable}: ${error.code ?? error.message}`));
      child.on('close', (code) => finish(code));
    });
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
