import { readFileSync } from 'node:fs';
import { homedir, hostname as osHostname } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ConfigError, type Env, integerSetting, nonEmpty } from '@ledger/config';
import { hostnameProblem } from '@ledger/inventory';
import { agentLedgerUrls } from './agent-ledger-url';
import { DRIVER_NAMES, type DriverName } from './driver-names';

/**
 * Every setting of the agent, parsed and validated in one place at start-up.
 * Defaults talk to a ledger on this machine and enable the drivers for real
 * hardware, which find nothing (and do nothing) on a host without it.
 */
export interface AgentConfig {
  /** LEDGER_URL (a comma-separated list of API replicas), else http://127.0.0.1:$PORT (8666): the clients' one rule (agent-ledger-url.ts; AGENT_LEDGER_URL is its deprecated name). */
  readonly ledgerUrls: readonly string[];
  /** AGENT_TOKEN, else the contents of AGENT_TOKEN_FILE: the host's agent credential (`ledgerctl agent-credential HOST`). Required. */
  readonly token: string;
  /** AGENT_HOSTNAME (os.hostname()): the host this agent speaks for; must equal Nova's nodename. */
  readonly hostname: string;
  /** AGENT_STATE_DIR ($XDG_STATE_HOME/ledger-agent/<hostname>, XDG_STATE_HOME defaulting to ~/.local/state): unsent job results, downloaded images, Ansible's temp files. */
  readonly stateDir: string;
  /** AGENT_REPORT_INTERVAL_S (60): a full report at least this often, changed or not. */
  readonly reportIntervalSeconds: number;
  /** AGENT_HEARTBEAT_INTERVAL_S (15): heartbeats, and the cheap discovery re-check that sends a report early on a change. */
  readonly heartbeatIntervalSeconds: number;
  /** AGENT_SYSFS_ROOT (/sys): where discovery reads sysfs; a fixture tree in tests. */
  readonly sysfsRoot: string;
  /** AGENT_DRIVERS (every real driver): comma list of drivers to enable, in priority order when two claim one PCI address. */
  readonly drivers: readonly DriverName[];
  /** AGENT_DRIVER_CONFIG: a JSON file of per-driver settings, `{ "<driver>": { … } }` (NIC physnet map, generic-pci allow-list, simulated fleet shape, nvidia-smi path). */
  readonly driverSettings: Readonly<Record<string, unknown>>;
  /** AGENT_PLAYBOOK_DIR (the shipped apps/agent/playbooks): `<dir>/<driver>/{install,uninstall}.yml`. */
  readonly playbookDir: string;
  /** AGENT_ANSIBLE_PLAYBOOK (ansible-playbook): the executable driver jobs run. */
  readonly ansiblePlaybook: string;
  /** AGENT_SANDBOX_ROOT (/): passed to playbooks as `sandbox_root`, the root they install under. */
  readonly sandboxRoot: string;
  /** AGENT_IMAGE_SERVICE_URL: a Glance-style image service, for program jobs that name an `imageUuid` rather than a URL. */
  readonly imageServiceUrl?: string;
  /** AGENT_IMAGE_SERVICE_TOKEN: sent as X-Auth-Token to the image service, when it needs one. */
  readonly imageServiceToken?: string;
  /** Settings that work but should change (a deprecated name): logged at start. */
  readonly warnings: readonly string[];
}


/** The shipped apps/agent/playbooks, whether this file runs from the source tree or compiled under dist/ (which holds no playbooks). */
export function shippedPlaybookDir(): string {
  const agentDir = resolve(__dirname, '..', '..');
  const compiled = basename(resolve(agentDir, '..', '..')) === 'dist';
  return compiled ? resolve(agentDir, '..', '..', '..', 'apps', 'agent', 'playbooks') : join(agentDir, 'playbooks');
}

export function loadAgentConfig(env: Env = process.env, cwd = process.cwd()): AgentConfig {
  const host = nonEmpty(env.AGENT_HOSTNAME) ?? osHostname();
  const hostProblem = hostnameProblem(host);
  if (hostProblem) throw new ConfigError('AGENT_HOSTNAME', `"${host}" ${hostProblem} (set AGENT_HOSTNAME to the host's name in Nova)`);
  const heartbeatIntervalSeconds = integerSetting(env, 'AGENT_HEARTBEAT_INTERVAL_S', 15, 1, 3600);
  const reportIntervalSeconds = integerSetting(env, 'AGENT_REPORT_INTERVAL_S', 60, 1, 86_400);
  const ledger = agentLedgerUrls(env);
  return {
    ledgerUrls: ledger.urls,
    token: token(env, cwd),
    hostname: host,
    stateDir: resolve(cwd, nonEmpty(env.AGENT_STATE_DIR) ?? defaultStateDir(env, host)),
    reportIntervalSeconds,
    heartbeatIntervalSeconds,
    sysfsRoot: resolve(cwd, nonEmpty(env.AGENT_SYSFS_ROOT) ?? '/sys'),
    drivers: drivers(env),
    driverSettings: driverSettings(env, cwd),
    playbookDir: resolve(cwd, nonEmpty(env.AGENT_PLAYBOOK_DIR) ?? shippedPlaybookDir()),
    ansiblePlaybook: nonEmpty(env.AGENT_ANSIBLE_PLAYBOOK) ?? 'ansible-playbook',
    sandboxRoot: resolve(cwd, nonEmpty(env.AGENT_SANDBOX_ROOT) ?? '/'),
    imageServiceUrl: url(env, 'AGENT_IMAGE_SERVICE_URL'),
    imageServiceToken: nonEmpty(env.AGENT_IMAGE_SERVICE_TOKEN),
    warnings: ledger.warnings,
  };
}

/**
 * The user's state directory (XDG), one folder per host: never the working
 * directory, so running the agent from a clone leaves the clone clean, and
 * simulated hosts on one machine keep their results apart. Deployments set
 * AGENT_STATE_DIR (/var/lib/ledger-agent).
 */
function defaultStateDir(env: Env, host: string): string {
  const stateHome = nonEmpty(env.XDG_STATE_HOME) ?? join(nonEmpty(env.HOME) ?? homedir(), '.local', 'state');
  return join(stateHome, 'ledger-agent', host);
}

function token(env: Env, cwd: string): string {
  const direct = nonEmpty(env.AGENT_TOKEN);
  if (direct !== undefined) return direct;
  const file = nonEmpty(env.AGENT_TOKEN_FILE);
  if (file === undefined) throw new ConfigError('AGENT_TOKEN', 'required: set AGENT_TOKEN or AGENT_TOKEN_FILE to the host\'s agent credential (ledgerctl agent-credential HOST)');
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8').trim();
  } catch (error) {
    throw new ConfigError('AGENT_TOKEN_FILE', `cannot read "${file}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (text === '') throw new ConfigError('AGENT_TOKEN_FILE', `"${file}" is empty`);
  return text;
}

function url(env: Env, name: string): string | undefined {
  const value = nonEmpty(env[name]);
  if (value === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `"${value}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(name, `"${value}" is not an http(s) URL`);
  return value.replace(/\/+$/, '');
}

function drivers(env: Env): DriverName[] {
  const value = nonEmpty(env.AGENT_DRIVERS);
  if (value === undefined) return DRIVER_NAMES.filter((name) => name !== 'simulated');
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw new ConfigError('AGENT_DRIVERS', 'names no driver');
  for (const name of names) {
    if (!(DRIVER_NAMES as readonly string[]).includes(name)) {
      throw new ConfigError('AGENT_DRIVERS', `"${name}" is not one of ${DRIVER_NAMES.join(', ')}`);
    }
  }
  return [...new Set(names)] as DriverName[];
}

function driverSettings(env: Env, cwd: string): Record<string, unknown> {
  const file = nonEmpty(env.AGENT_DRIVER_CONFIG);
  if (file === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(cwd, file), 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? `is not JSON (${error.message})` : `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    throw new ConfigError('AGENT_DRIVER_CONFIG', `"${file}" ${reason}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('AGENT_DRIVER_CONFIG', `"${file}" must hold a JSON object keyed by driver name`);
  }
  for (const key of Object.keys(parsed)) {
    if (!(DRIVER_NAMES as readonly string[]).includes(key)) {
      throw new ConfigError('AGENT_DRIVER_CONFIG', `"${file}": "${key}" is not a driver (${DRIVER_NAMES.join(', ')})`);
    }
  }
  return parsed as Record<string, unknown>;
}
