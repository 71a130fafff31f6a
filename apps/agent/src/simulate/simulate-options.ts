import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError } from '@ledger/config';
import { agentLedgerUrls, ledgerUrlList } from '../config/agent-ledger-url';
import { MAX_DEVICES_PER_HOST } from './fleet-shape';

/** `npm run simulate -- …`, parsed and checked. */
export interface SimulateOptions {
  readonly hosts: number;
  readonly devicesPerHost: number;
  readonly reportIntervalSeconds: number;
  readonly heartbeatIntervalSeconds: number;
  /** Fraction of all devices changed every report interval (0: none). */
  readonly churn: number;
  /** --ledger, else LEDGER_URL, else http://127.0.0.1:$PORT (8666), as every client finds the ledger; a comma-separated list names several API replicas. */
  readonly ledgerUrls: readonly string[];
  /** Settings that work but should change (the deprecated AGENT_LEDGER_URL). */
  readonly warnings: readonly string[];
  /** One token for every host (an admin token); else each host's own, signed with the key in `dataDir`. */
  readonly token?: string;
  readonly dataDir: string;
  /** Calls in flight at most, across every worker. */
  readonly concurrency: number;
  /** Processes running the fleet, each a slice of the hosts (1: this process alone). */
  readonly workers: number;
  /** Stop after this many seconds; undefined: run until SIGINT or SIGTERM. */
  readonly durationSeconds?: number;
  readonly progressSeconds: number;
  /** The `simulated` block of a driver settings file (AGENT_DRIVER_CONFIG's format). */
  readonly simulated: Readonly<Record<string, unknown>>;
}

const integer = (min: number, max: number) => (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
  return Number(value);
};

function fraction(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0 || parsed > 1) throw new InvalidArgumentError('expected a fraction from 0 to 1 (0.01 is 1%)');
  return parsed;
}

/** A comma-separated list of http(s) URLs, as LEDGER_URL takes (agentLedgerUrls). */
function httpUrls(value: string): readonly string[] {
  try {
    return ledgerUrlList(value, '--ledger');
  } catch (error) {
    throw new InvalidArgumentError(error instanceof ConfigError ? error.message : String(error));
  }
}

/** `{"simulated": {…}}`, as the agent's AGENT_DRIVER_CONFIG file; the driver checks the block itself when hosts are made. */
function simulatedBlock(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(file), 'utf8'));
  } catch (error) {
    throw new InvalidArgumentError(`cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const block = (parsed as { simulated?: unknown } | null)?.simulated;
  if (typeof block !== 'object' || block === null || Array.isArray(block)) throw new InvalidArgumentError(`${file} has no "simulated" object`);
  return block as Record<string, unknown>;
}

/** Parses the arguments after `npm run simulate --`; a bad one throws commander's error (exit code 2 from main). */
export function parseSimulateOptions(argv: readonly string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): SimulateOptions {
  const program = new Command('simulate')
    .description('A fleet of simulated hosts, each running the agent\'s report and heartbeat loops over the simulated driver against one ledger.')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
    .option('--hosts <n>', 'hosts to simulate (sim-00001 …)', integer(1, 1_000_000), 100)
    .option('--devices <n>', 'devices per host: a quarter FPGAs, a quarter NICs, the rest GPUs', integer(0, MAX_DEVICES_PER_HOST), 8)
    .option('--interval <seconds>', 'full report interval (AGENT_REPORT_INTERVAL_S)', integer(1, 86_400), 60)
    .option('--heartbeat <seconds>', "heartbeat interval (AGENT_HEARTBEAT_INTERVAL_S; the agent's default)", integer(1, 3600), 15)
    .option('--churn <fraction>', 'fraction of all devices changed every interval, e.g. 0.01', fraction, 0)
    .option('--ledger <urls>', 'the ledger, or its API replicas comma-separated (default LEDGER_URL, else http://127.0.0.1:$PORT, PORT 8666)', httpUrls)
    .option('--token <token>', 'one admin token for every host, when the signing key is out of reach')
    .option('--data-dir <dir>', "the ledger's data directory, for its signing key (default LEDGER_DATA_DIR or ./data)")
    .option('--concurrency <n>', 'calls to the ledger in flight at most (shared out between the workers)', integer(1, 4096), 32)
    .option('--workers <n>', 'child processes running the fleet, each an interleaved slice of the hosts (for fleets one process cannot drive)', integer(1, 64), 1)
    .option('--duration <seconds>', 'stop after this long (default: until Ctrl-C)', integer(1, 31_536_000))
    .option('--progress <seconds>', 'seconds between progress lines on stderr', integer(1, 3600), 5)
    .option('--driver-config <file>', 'JSON {"simulated": {…}}: simulated driver settings (seed, vgpuType, latencyMs, failureRate…) over the --devices shape', simulatedBlock)
    .parse([...argv], { from: 'user' });
  const options = program.opts<{
    hosts: number;
    devices: number;
    interval: number;
    heartbeat: number;
    churn: number;
    ledger?: readonly string[];
    token?: string;
    dataDir?: string;
    concurrency: number;
    workers: number;
    duration?: number;
    progress: number;
    driverConfig?: Record<string, unknown>;
  }>();
  // --ledger first, then the rule every client follows (a ConfigError naming the variable when it is bad).
  const ledger = options.ledger === undefined ? agentLedgerUrls(env) : { urls: options.ledger, warnings: [] };
  return {
    hosts: options.hosts,
    devicesPerHost: options.devices,
    reportIntervalSeconds: options.interval,
    heartbeatIntervalSeconds: options.heartbeat,
    churn: options.churn,
    ledgerUrls: ledger.urls,
    warnings: ledger.warnings,
    token: options.token?.trim() || undefined,
    dataDir: resolve(cwd, options.dataDir ?? (env.LEDGER_DATA_DIR?.trim() || 'data')),
    concurrency: options.concurrency,
    workers: options.workers,
    durationSeconds: options.duration,
    progressSeconds: options.progress,
    simulated: options.driverConfig ?? {},
  };
}
