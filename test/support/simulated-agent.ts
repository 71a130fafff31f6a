import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@ledger/processing/testing';
import { type AgentProcess, startAgentProcess } from './agent-process';
import type { TestLedger } from './ledger-app';

export interface SimulatedAgentOptions {
  readonly ledgerUrl: string;
  /** An agent token for `hostname`. */
  readonly token: string;
  readonly hostname: string;
  /** Where its state directory and driver config go. */
  readonly dir: string;
  /** The `simulated` driver's settings (apps/agent/src/drivers/simulated/simulated.settings.ts). */
  readonly simulated: Record<string, unknown>;
}

/**
 * Starts an agent process serving `hostname` with the simulated driver and
 * resolves once it has discovered its devices. It heartbeats every second,
 * so a test waits for the ledger to see it `up` (jobs are refused before)
 * within a second or so — the caller's to wait for, through its own client.
 */
export async function startSimulatedAgent(options: SimulatedAgentOptions): Promise<AgentProcess> {
  const driverConfig = join(options.dir, `${options.hostname}.json`);
  writeFileSync(driverConfig, JSON.stringify({ simulated: options.simulated }));
  const agent = startAgentProcess({
    LEDGER_URL: options.ledgerUrl,
    AGENT_TOKEN: options.token,
    AGENT_HOSTNAME: options.hostname,
    AGENT_STATE_DIR: join(options.dir, options.hostname),
    AGENT_DRIVERS: 'simulated',
    AGENT_DRIVER_CONFIG: driverConfig,
    AGENT_HEARTBEAT_INTERVAL_S: '1',
  });
  try {
    await agent.waitForOutput(/discovery: \d+ device\(s\)/);
  } catch (error) {
    // The caller never gets hold of it to stop it.
    await agent.stop('SIGKILL');
    throw error;
  }
  return agent;
}

/**
 * Starts the simulated agent of `hostname` against an in-process test
 * ledger, with the host's own agent credential, and resolves once the
 * ledger sees it `up` (a job is refused until it has a heartbeat).
 */
export async function startAgentOnLedger(
  ledger: TestLedger,
  options: Pick<SimulatedAgentOptions, 'hostname' | 'dir' | 'simulated'>,
): Promise<AgentProcess> {
  const { hostname } = options;
  const token = ledger.token({ user: `agent:${hostname}`, project: null, roles: ['agent'], host: hostname });
  const agent = await startSimulatedAgent({ ledgerUrl: ledger.url, token, ...options });
  await eventually(async () => (await ledger.request('GET', `/api/v1/hosts/${hostname}`, { token: ledger.adminToken })).body?.agentStatus === 'up');
  return agent;
}
