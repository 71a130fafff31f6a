/**
 * `npm run simulate -- --hosts N …`: a fleet of simulated hosts against one
 * ledger, for demos and the scale benchmark. See apps/agent/README.md,
 * "Simulating a fleet".
 */
import { CommanderError } from 'commander';
import { CredentialsError, agentCredentials } from './fleet-credentials';
import { FleetLogger } from './fleet-logger';
import { hostShape } from './fleet-shape';
import { progressLine } from './progress-line';
import { parseSimulateOptions, type SimulateOptions } from './simulate-options';
import { SimulatedFleet } from './simulated-fleet';
import { waitForLedger } from './wait-for-ledger';

const LEDGER_WAIT_MS = 60_000;

const say = (line: string) => process.stderr.write(`${new Date().toISOString()} simulate ${line}\n`);

async function main(): Promise<number> {
  let options: SimulateOptions;
  try {
    options = parseSimulateOptions(process.argv.slice(2), process.env);
  } catch (error) {
    // commander has printed its own message (or the help, exit code 0).
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    say(`invalid configuration: ${(error as Error).message}`);
    return 2;
  }
  for (const warning of options.warnings) say(`warning: ${warning}`);

  const stopping = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      say(`${signal} again: exiting without waiting for calls in flight`);
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
  let tokenFor: (hostname: string) => string;
  try {
    tokenFor = options.token === undefined ? agentCredentials(options.dataDir) : () => options.token as string;
  } catch (error) {
    if (!(error instanceof CredentialsError)) throw error;
    say(error.message);
    return 2;
  }
  if (options.token !== undefined) say('every host speaks with the one --token: hosts do not authenticate as themselves (give --data-dir for per-host credentials)');

  const logger = new FleetLogger(say);
  const fleet = new SimulatedFleet({ ...options, tokenFor, simulated: options.simulated, logger });
  say(describe(options));
  const progress = setInterval(() => {
    say(progressLine(fleet.stats.takePeriod(), { hosts: options.hosts, registered: fleet.registered, queued: fleet.limiter.queued }));
    logger.flush();
  }, options.progressSeconds * 1000);
  const duration = options.durationSeconds === undefined ? undefined : setTimeout(() => stopping.abort(), options.durationSeconds * 1000);
  let churn: NodeJS.Timeout | undefined;

  const started = Date.now();
  const running = fleet.start().then(() => {
    if (fleet.stopped) return;
    say(`${fleet.registered}/${options.hosts} hosts registered in ${((Date.now() - started) / 1000).toFixed(1)} s; reports now spread over ${options.reportIntervalSeconds} s`);
    if (options.churn > 0) churn = setInterval(() => void churnOnce(fleet, options.churn), options.reportIntervalSeconds * 1000);
  });
  await Promise.race([running, new Promise((resolve) => stopping.signal.addEventListener('abort', resolve, { once: true }))]);
  if (!stopping.signal.aborted) await new Promise((resolve) => stopping.signal.addEventListener('abort', resolve, { once: true }));

  clearInterval(churn);
  clearTimeout(duration);
  // No progress line after "stopping": the last line is the summary.
  clearInterval(progress);
  await fleet.stop();
  const totals = fleet.stats.totals();
  say(
    `stopped after ${totals.seconds.toFixed(0)} s: ${totals.reports} reports (${totals.changedReports} appended), ` +
      `${totals.heartbeats} heartbeats, ${totals.errors} errors`,
  );
  return 0;
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
    `churn ${(options.churn * 100).toFixed(2)}% of devices per interval; at most ${options.concurrency} calls in flight`
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`failed: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(1);
  },
);
