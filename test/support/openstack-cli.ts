import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The real `openstack accelerator` CLI (Debian's python3-openstackclient and
 * python3-cyborgclient 2.0.0), run against a ledger the way CYBORG-V2.md §11
 * points it at any endpoint. Debian's scripts run with /usr/bin/python3; a
 * pyenv python lacks their modules, so the path is fixed.
 */
export const OPENSTACK = '/usr/bin/openstack';
const PYTHON = '/usr/bin/python3';

/** One finished CLI call: what the user would have seen. */
export interface CliRun {
  /** The command line, with the token elided. */
  readonly command: string;
  /** The exit code; null when the process was killed (timeout). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON (for `-f json`); throws with the whole run when the call failed or printed no JSON. */
  json<T = any>(): T;
}

export interface AcceleratorCallOptions {
  /** The `--os-endpoint`; default `<ledger>/v2`, which skips discovery at `/`. */
  readonly endpoint?: string;
  /** `--os-accelerator-api-version`; default 2.2, from which `device profile show` takes a name. */
  readonly apiVersion?: string;
}

export interface OpenstackCli {
  /**
   * Runs `openstack --os-auth-type admin_token … accelerator <args>` as the
   * holder of `token`; with null, `--os-auth-type none` (the client then
   * sends `X-Auth-Token: notused`).
   */
  accelerator(token: string | null, args: readonly string[], options?: AcceleratorCallOptions): Promise<CliRun>;
  /**
   * Runs `openstack … accelerator <args>` as an operator of a Keystone cloud
   * does: password authentication against `--os-auth-url` and no
   * `--os-endpoint`, so the client finds the ledger in the service catalog.
   */
  acceleratorWithPassword(login: KeystoneLogin, args: readonly string[], options?: Pick<AcceleratorCallOptions, 'apiVersion'>): Promise<CliRun>;
  /** Removes the CLI's temporary HOME. */
  close(): void;
}

/** A Keystone user's login, as `openstack --os-auth-url … --os-username … --os-password … --os-project-name …` gives it. */
export interface KeystoneLogin {
  readonly authUrl: string;
  readonly user: string;
  readonly password: string;
  readonly project: string;
}

/** Far longer than a call takes (1–2 s, nearly all Python start-up, more on a loaded machine), short enough to fail a hung call clearly. */
const TIMEOUT_MS = 30_000;

/**
 * A CLI bound to one ledger. Each call gets a clean environment: no OS_*
 * variable of the caller's leaks in, and HOME is an empty directory, so no
 * clouds.yaml or cache changes what is sent. Calls are asynchronous on
 * purpose: the ledger under test may live in this very process.
 */
export function openstackCli(ledgerUrl: string): OpenstackCli {
  const home = mkdtempSync(join(tmpdir(), 'openstack-cli-'));
  const env = { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', PYTHONNOUSERSITE: '1' };
  return {
    accelerator(token, args, options = {}) {
      const auth = token === null ? ['--os-auth-type', 'none'] : ['--os-auth-type', 'admin_token', '--os-token', token];
      const global = [...auth, '--os-endpoint', options.endpoint ?? `${ledgerUrl}/v2`, '--os-accelerator-api-version', options.apiVersion ?? '2.2'];
      const shown = [OPENSTACK, ...global.map((arg) => (arg === token ? '<token>' : arg)), 'accelerator', ...args].join(' ');
      return run(OPENSTACK, [...global, 'accelerator', ...args], env, shown);
    },
    acceleratorWithPassword(login, args, options = {}) {
      const global = [
        ...['--os-auth-type', 'password', '--os-identity-api-version', '3', '--os-auth-url', login.authUrl],
        ...['--os-username', login.user, '--os-password', login.password, '--os-project-name', login.project],
        ...['--os-user-domain-name', 'Default', '--os-project-domain-name', 'Default', '--os-region-name', 'RegionOne'],
        ...['--os-accelerator-api-version', options.apiVersion ?? '2.2'],
      ];
      const shown = [OPENSTACK, ...global.map((arg) => (arg === login.password ? '<password>' : arg)), 'accelerator', ...args].join(' ');
      return run(OPENSTACK, [...global, 'accelerator', ...args], env, shown);
    },
    close: () => rmSync(home, { recursive: true, force: true }),
  };
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv, command: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: TIMEOUT_MS, killSignal: 'SIGKILL', encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      // A timeout, or a process that never started (ENOENT), leaves no exit code: say why in stderr.
      const whyNoExitCode = error === null || code !== null ? '' : error.killed ? `\n[killed after ${TIMEOUT_MS} ms]` : `\n[${error.message}]`;
      const describe = () => `${command}\nexit code: ${code}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}${whyNoExitCode}`;
      resolve({
        command,
        code,
        stdout,
        stderr: stderr + whyNoExitCode,
        json() {
          if (code !== 0) throw new Error(`The openstack CLI failed:\n${describe()}`);
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(`The openstack CLI printed no JSON:\n${describe()}`);
          }
        },
      });
    });
  });
}

/**
 * Why the real client cannot be used here, or undefined when it can: the
 * CLI must exist and its accelerator plugin must register the v2 commands.
 * Asks Python for the plugin's registration instead of running the CLI
 * (≈0.2 s instead of ≈2 s), because Jest's global setup runs on every test run.
 */
export async function openstackClientProblem(): Promise<string | undefined> {
  const install = 'install them with: apt-get install python3-openstackclient python3-cyborgclient';
  try {
    await access(OPENSTACK, constants.X_OK);
  } catch {
    return `${OPENSTACK} is missing; ${install}`;
  }
  // Importing the plugin module itself would cost a second; its registration is what the CLI reads.
  const check = [
    'import importlib.metadata as m, openstackclient, cyborgclient',
    "assert 'accelerator' in {e.name for e in m.entry_points(group='openstack.cli.extension')}, 'cyborgclient is not registered with the openstack CLI'",
    "names = {e.name for e in m.entry_points(group='openstack.accelerator.v2')}",
    "assert 'accelerator_device_profile_create' in names, 'no openstack accelerator v2 commands registered'",
  ].join('\n');
  const probe = await run(PYTHON, ['-c', check], { PATH: '/usr/bin:/bin', PYTHONNOUSERSITE: '1' }, `${PYTHON} -c <probe>`);
  if (probe.code === 0) return undefined;
  const why = probe.stderr.trim().split('\n').at(-1) || `exit code ${probe.code}`;
  return `the openstack accelerator plugin is not usable (${why}); ${install}`;
}
