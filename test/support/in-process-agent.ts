import { join } from 'node:path';
import { shippedPlaybookDir } from '../../apps/agent/src/config/agent-config';
import { createDrivers } from '../../apps/agent/src/drivers/create-drivers';
import { runCommand } from '../../apps/agent/src/drivers/run-command';
import type { SimulatedDriver } from '../../apps/agent/src/drivers/simulated/simulated.driver';
import { Agent, type AgentDependencies } from '../../apps/agent/src/runtime/agent';
import type { AgentLogger } from '../../apps/agent/src/runtime/agent-logger';
import { ansiblePlaybookPath } from './ansible-path';

export interface InProcessAgentOptions {
  readonly ledgerUrls: readonly string[];
  /** An agent token for `hostname`. */
  readonly token: string;
  readonly hostname: string;
  readonly stateDir: string;
  /** The `simulated` driver's settings (apps/agent/src/drivers/simulated/simulated.settings.ts). */
  readonly simulated: Record<string, unknown>;
  readonly logger: AgentLogger;
  /** What the simulated driver's latencies wait on (a timer by default). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The ledger client, and the long poll's wait; the agent's own by default. */
  readonly dependencies?: Pick<AgentDependencies, 'client' | 'jobWaitSeconds'>;
}

/**
 * The agent as main.ts builds it, in the test's process, with the real
 * simulated driver: heartbeats every second, a full report only hourly (so
 * what reaches the ledger between comes from the change check), the
 * shipped playbooks and the real ansible-playbook. Not started.
 */
export function inProcessSimulatedAgent(options: InProcessAgentOptions): { readonly agent: Agent; readonly driver: SimulatedDriver } {
  const { hostname, stateDir, logger } = options;
  const playbookDir = shippedPlaybookDir();
  const drivers = createDrivers(
    { drivers: ['simulated'], driverSettings: { simulated: options.simulated }, hostname, stateDir, playbookDir },
    { sysfsRoot: join(stateDir, 'no-sysfs'), logger, runCommand, fetch, sleep: options.sleep },
  );
  const agent = new Agent(
    {
      ledgerUrls: options.ledgerUrls,
      token: options.token,
      hostname,
      stateDir,
      reportIntervalSeconds: 3600,
      heartbeatIntervalSeconds: 1,
      playbookDir,
      ansiblePlaybook: ansiblePlaybookPath(),
      sandboxRoot: join(stateDir, 'sandbox'),
    },
    { drivers, logger, ...options.dependencies },
  );
  return { agent, driver: drivers[0] as SimulatedDriver };
}
