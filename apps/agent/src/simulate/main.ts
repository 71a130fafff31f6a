/**
 * `npm run simulate -- --hosts N …`: a fleet of simulated hosts against one
 * ledger (or its API replicas), for demos and the scale benchmark; with
 * `--workers N`, in N child processes each running a slice of the hosts. See apps/agent/README.md,
 * "Simulating a fleet".
 */
import { once } from 'node:events';
import { CommanderError } from 'commander';
import { CredentialsError, agentCredentials } from './fleet-credentials';
import { FleetLogger } from './fleet-logger';
import { hostShape } from './fleet-shape';
import type { PeriodCounts } from './fleet-stats';
import { forkWorkers, type WorkerMessage, WorkerProgress, workerConcurrency, workerSlice, workersExited } from './fleet-workers';
import { progressLine } from './progress-line';
import { parseSimulateOptions, type SimulateOptions } from './simulate-options';
import { type FleetSlice, SimulatedFleet } from './simulated-fleet';
import { waitForLedger } from './wait-for-ledger';

const LEDGER_WAIT_MS = 60_000;

const WORKER_SLICE = (() => {
  try {
    return workerSlice(process.env);
  } catch {
    return undefined;
  }
})();
const name = WORKER_SLICE ? `simulate[${WORKER_SLICE.worker}]` : 'simulate';
const say = (line: string) => process.stderr.write(`${new Date().toISOString()} ${name} ${line}\n`);

async function main(): Promise<number> {
  let options: SimulateOptions;
  let slice: FleetSlice | undefined;
  try {
    options = parseSimulateOptions(process.argv.slice(2), process.env);
    slice = workerSlice(process.env);
  } catch (error) {
    // commander has printed its own message (or the help, exit code 0).
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    say(`invalid configuration: ${(error as Error).message}`);
    return 2;
  }
  if (slice) return runWorker(options, slice);
  for (const warning of options.warnings) say(`warning: ${warning}`);

  const stopping = new AbortController();
  let signals = 0;
  let onSecondSignal = () => undefined as void;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      say(`${signal} again: exiting without waiting for calls in flight`);
      onSecondSignal();
      process.exit(130);
    }
    say(`${signal}: stopping`);
    stopping.abort();
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);

  if (!(await waitForLedger(options.ledgerUrls[0], LEDGER_WAIT_MS, () => say(`waiting for the ledger at ${options.ledgerUrls[0]}`), stopping.signal))) {
    if (stopping.signal.aborted) return 0;
    say(`the ledger at ${options.ledgerUrls[0]} did not answer /healthz within ${LEDGER_WAIT_MS / 1000} s: is it running (npm start)?`);
    return 1;
  }
  const tokenFor = credentials(options);
  if (!tokenFor) return 2;
  say(describe(options));
  if (options.workers > 1) {
    return runWorkers(options, stopping.signal, (kill) => (onSecondSignal = kill));
  }

  const logger = new FleetLogger(say);
  const fleet = new SimulatedFleet({ ...options, tokenFor, simulated: options.simulated, logger });
  const progress = setInterval(() => {
    say(progressLine(fleet.stats.takePeriod(), { hosts: options.hosts, registered: fleet.registered, queued: fleet.limiter.queued }));
    logger.flush();
  }, options.progressSeconds * 1000);
  const started = Date.now();
  await runUntilStopped(fleet, options, stopping.signal, () => {
    say(`${fleet.registered}/${options.hosts} hosts registered in ${((Date.now() - started) / 1000).toFixed(1)} s; reports now spread over ${options.reportIntervalSeconds} s`);
  });
  // No progress line after "stopping": the last line is the summary.
  clearInterval(progress);
  await fleet.stop();
  say(summaryLine(fleet.stats.totalCounts()));
  return 0;
}

/** Each host's own credential, or the one --token; undefined (having said why) when the signing key is out of reach. */
function credentials(options: SimulateOptions): ((hostname: string) => string) | undefined {
  try {
    const tokenFor = options.token === undefined ? agentCredentials(options.dataDir) : () => options.token as string;
    if (options.token !== undefined) say('every host speaks with the one --token: hosts do not authenticate as themselves (give --data-dir for per-host credentials)');
    return tokenFor;
  } catch (error) {
    if (!(error instanceof CredentialsError)) throw error;
    say(error.message);
    return undefined;
  }
}

/**
 * Starts the fleet and runs it until `stop` (a signal, --duration), with
 * churn every interval once every host is registered; `onRegistered` is
 * told when they are. The caller stops the fleet.
 */
async function runUntilStopped(fleet: SimulatedFleet, options: SimulateOptions, stop: AbortSignal, onRegistered: () => void): Promise<void> {
  const stopped = new AbortController();
  const stopNow = () => stopped.abort();
  stop.addEventListener('abort', stopNow, { once: true });
  const duration = options.durationSeconds === undefined ? undefined : setTimeout(stopNow, options.durationSeconds * 1000);
  let churn: NodeJS.Timeout | undefined;
  let failure: { error: unknown } | undefined;
  fleet.start().then(
    () => {
      if (fleet.stopped || stopped.signal.aborted) return;
      onRegistered();
      if (options.churn > 0) churn = setInterval(() => void churnOnce(fleet, options.churn), options.reportIntervalSeconds * 1000);
    },
    (error: unknown) => {
      failure = { error };
      stopNow();
    },
  );
  if (!stopped.signal.aborted) await once(stopped.signal, 'abort');
  clearInterval(churn);
  clearTimeout(duration);
  if (failure) throw failure.error;
}

/**
 * A worker of `--workers N`: its slice of the hosts, its share of the calls
 * in flight, its periods and totals sent to the parent instead of printed.
 * It stops on the parent's SIGTERM, or when the parent goes away; the
 * terminal's Ctrl-C reaches it too, and is left to the parent.
 */
async function runWorker(options: SimulateOptions, slice: FleetSlice): Promise<number> {
  const send = (message: WorkerMessage) => new Promise<void>((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()));
  const stopping = new AbortController();
  process.on('SIGINT', () => undefined).on('SIGTERM', () => stopping.abort());
  process.on('disconnect', () => stopping.abort());
  const tokenFor = credentials(options);
  if (!tokenFor) return 2;
  const logger = new FleetLogger(say);
  const fleet = new SimulatedFleet({ ...options, slice, concurrency: workerConcurrency(options.concurrency, slice.workers), tokenFor, simulated: options.simulated, logger });
  const progress = setInterval(() => {
    void send({ kind: 'period', counts: fleet.stats.takePeriodCounts(), registered: fleet.registered, queued: fleet.limiter.queued });
    logger.flush();
  }, options.progressSeconds * 1000);
  await runUntilStopped(fleet, options, stopping.signal, () => void send({ kind: 'registered', registered: fleet.registered }));
  clearInterval(progress);
  await fleet.stop();
  await send({ kind: 'totals', counts: fleet.stats.totalCounts() });
  return 0;
}

/**
 * The parent of `--workers N`: forks the workers, prints their merged
 * progress every --progress seconds, and when `stop` fires (or each has
 * ended its --duration) stops them with SIGTERM and prints the merged
 * summary. `onKill` is given what a second Ctrl-C runs: SIGKILL for every worker.
 */
async function runWorkers(options: SimulateOptions, stop: AbortSignal, onKill: (kill: () => void) => void): Promise<number> {
  const workers = new WorkerProgress(options.hosts, options.workers);
  const started = Date.now();
  const children = forkWorkers(options.workers, (worker, message) => {
    if (workers.add(worker, message)) {
      say(`${workers.hostsRegistered}/${options.hosts} hosts registered in ${((Date.now() - started) / 1000).toFixed(1)} s by ${options.workers} workers; reports now spread over ${options.reportIntervalSeconds} s`);
    }
  });
  onKill(() => children.forEach((child) => child.kill('SIGKILL')));
  const terminate = () => children.forEach((child) => child.exitCode === null && child.signalCode === null && child.kill('SIGTERM'));
  stop.addEventListener('abort', terminate, { once: true });
  const progress = setInterval(() => {
    const line = workers.takeLine();
    if (line) say(line);
  }, options.progressSeconds * 1000);
  const codes = await workersExited(children);
  clearInterval(progress);
  const { counts, workersReporting } = workers.summary();
  say(`${summaryLine(counts)}${workersReporting < options.workers ? ` (from ${workersReporting} of ${options.workers} workers)` : ''}`);
  return Math.max(0, ...codes);
}

function summaryLine(totals: PeriodCounts): string {
  return `stopped after ${totals.seconds.toFixed(0)} s: ${totals.reports} reports (${totals.changedReports} appended), ${totals.heartbeats} heartbeats, ${totals.errors} errors`;
}

async function churnOnce(fleet: SimulatedFleet, fraction: number): Promise<void> {
  const changed = await fleet.churn(fraction);
  const hosts = new Set(changed.map((device) => device.hostname)).size;
  say(`churn: ${changed.length} device(s) on ${hosts} host(s) changed${changed[0] ? `, e.g. ${changed[0].hostname} ${changed[0].pciAddress} ${changed[0].description}` : ''}`);
}

function describe(options: SimulateOptions): string {
  const shape = hostShape(options.devicesPerHost);
  return (
    `${options.hosts} hosts × ${options.devicesPerHost} devices (${shape.fpgas} FPGA, ${shape.gpus} GPU, ${shape.nics} NIC) → ${options.ledgerUrls.join(', ')}; ` +
    `reports every ${options.reportIntervalSeconds} s, heartbeats every ${options.heartbeatIntervalSeconds} s, ` +
    `churn ${(options.churn * 100).toFixed(2)}% of devices per interval; at most ${options.concurrency} calls in flight` +
    (options.workers > 1 ? `; ${options.workers} worker processes, the hosts dealt out between them in turn` : '')
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`failed: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(1);
  },
);
