import { mkdirSync } from 'node:fs';
import { ConfigError } from '@ledger/config';
import { AGENT_USAGE, asksForUsage } from './agent-usage';
import { loadAgentConfig } from './config/agent-config';
import { createDrivers } from './drivers/create-drivers';
import { runCommand } from './drivers/run-command';
import { Agent } from './runtime/agent';
import { consoleLogger } from './runtime/agent-logger';
import { AGENT_VERSION } from './runtime/agent-version';

/** Runs a start-up step; an invalid setting ends the process with exit code 2 and the setting's name. */
function orExit<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`agent: invalid configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (asksForUsage(args)) {
    process.stdout.write(AGENT_USAGE);
    return;
  }
  if (args.length > 0) {
    process.stderr.write(`agent: unexpected argument ${JSON.stringify(args[0])}: the agent is configured by environment (npm run agent -- --help)\n`);
    process.exit(2);
  }
  const config = orExit(() => loadAgentConfig());
  for (const warning of config.warnings) consoleLogger.warn(warning);
  mkdirSync(config.stateDir, { recursive: true });
  // Driver settings (AGENT_DRIVER_CONFIG) are checked as each driver reads its block.
  const drivers = orExit(() => createDrivers(config, { sysfsRoot: config.sysfsRoot, logger: consoleLogger, runCommand, fetch }));
  const agent = new Agent(config, { drivers, logger: consoleLogger });
  consoleLogger.log(
    `${AGENT_VERSION} for ${config.hostname} → ${config.ledgerUrls.join(', ')}; drivers ${drivers.map((driver) => driver.name).join(', ')}; ` +
      `reports every ${config.reportIntervalSeconds} s, heartbeats every ${config.heartbeatIntervalSeconds} s; state in ${config.stateDir}`,
  );
  agent.start();

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      consoleLogger.warn(`${signal} again: exiting without waiting for the job in hand`);
      process.exit(1);
    }
    stopping = true;
    consoleLogger.log(`${signal}: stopping (the job in hand finishes and its result is saved)`);
    agent.stop().then(
      () => {
        const waiting = agent.outbox.pending().length;
        consoleLogger.log(`stopped${waiting > 0 ? `; ${waiting} job result(s) wait in ${agent.outbox.dir} for the next start` : ''}`);
        process.exit(0);
      },
      (error: unknown) => {
        consoleLogger.error(`stopping failed: ${(error as Error)?.stack ?? error}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((error) => {
  process.stderr.write(`agent: failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
