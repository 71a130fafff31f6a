import { AnsibleRunner } from '../ansible/ansible-runner';
import type { AgentConfig } from '../config/agent-config';
import type { AcceleratorDriver } from '../drivers/accelerator-driver';
import { type AgentLogger, consoleLogger } from './agent-logger';
import { HeartbeatLoop } from './heartbeat-loop';
import { HostDiscovery } from './host-discovery';
import { JobLoop } from './jobs/job-loop';
import { JobRunner } from './jobs/job-runner';
import { LedgerClient } from './ledger-client';
import { ReportLoop } from './report-loop';
import { ResultOutbox } from './result-outbox';
import { ResultSender } from './result-sender';
import { realTimers, type Timers } from './timers';

/** The settings the running agent uses (AgentConfig minus what only start-up needs). */
export type AgentSettings = Pick<
  AgentConfig,
  | 'ledgerUrls'
  | 'token'
  | 'hostname'
  | 'stateDir'
  | 'reportIntervalSeconds'
  | 'heartbeatIntervalSeconds'
  | 'playbookDir'
  | 'ansiblePlaybook'
  | 'sandboxRoot'
  | 'imageServiceUrl'
  | 'imageServiceToken'
>;

export interface AgentDependencies {
  readonly drivers: readonly AcceleratorDriver[];
  readonly logger?: AgentLogger;
  readonly timers?: Timers;
  readonly client?: LedgerClient;
  readonly ansible?: Pick<AnsibleRunner, 'run'>;
  /** Long-poll wait for jobs (25 s). */
  readonly jobWaitSeconds?: number;
}

/**
 * One host's agent: four loops over one discovery — reports, heartbeats,
 * jobs (long poll) and delivery of saved job results — that keep working
 * while the ledger is away and catch up when it is back.
 */
export class Agent {
  readonly discovery: HostDiscovery;
  readonly outbox: ResultOutbox;
  private readonly reports: ReportLoop;
  private readonly heartbeats: HeartbeatLoop;
  private readonly jobs: JobLoop;
  private readonly results: ResultSender;
  private readonly logger: AgentLogger;
  private stopController?: AbortController;
  private running?: Promise<unknown>;

  constructor(settings: AgentSettings, dependencies: AgentDependencies) {
    const logger = (this.logger = dependencies.logger ?? consoleLogger);
    const timers = dependencies.timers ?? realTimers;
    const client =
      dependencies.client ??
      new LedgerClient({
        baseUrls: settings.ledgerUrls,
        token: settings.token,
        hostname: settings.hostname,
        onFailover: ({ route, from, to, reason }) => logger.log(`ledger: ${from} could not serve ${route} (${reason}); ${to} answered and takes the next calls`),
      });
    this.discovery = new HostDiscovery(settings.hostname, dependencies.drivers, logger);
    this.outbox = new ResultOutbox(settings.stateDir, logger);
    this.reports = new ReportLoop({
      discovery: this.discovery,
      client,
      timers,
      logger,
      reportIntervalMs: settings.reportIntervalSeconds * 1000,
      checkIntervalMs: settings.heartbeatIntervalSeconds * 1000,
    });
    // Jobs whose result, once delivered, is followed by a fresh report (a carve, a destroy); lost with a restart, when the periodic report covers them.
    const reportAfter = new Set<string>();
    this.results = new ResultSender({
      outbox: this.outbox,
      client,
      timers,
      logger,
      onDelivered: (jobId) => {
        if (reportAfter.delete(jobId)) this.reports.reportNow();
      },
    });
    const runner = new JobRunner({
      discovery: this.discovery,
      ansible: dependencies.ansible ?? new AnsibleRunner({ executable: settings.ansiblePlaybook, stateDir: settings.stateDir }),
      images: {
        stateDir: settings.stateDir,
        ledger: { urls: () => client.addressesInTurn(), token: settings.token },
        imageServiceUrl: settings.imageServiceUrl,
        imageServiceToken: settings.imageServiceToken,
      },
      playbookDir: settings.playbookDir,
      sandboxRoot: settings.sandboxRoot,
      reportNow: () => this.reports.reportNow(),
      reportOnceDelivered: (jobId) => reportAfter.add(jobId),
      logger,
    });
    this.jobs = new JobLoop({
      client,
      runner,
      outbox: this.outbox,
      deliver: (jobId, result, saved) => this.results.send(jobId, result, saved),
      onResult: () => this.results.wake(),
      timers,
      logger,
      waitSeconds: dependencies.jobWaitSeconds,
    });
    this.heartbeats = new HeartbeatLoop({
      discovery: this.discovery,
      client,
      timers,
      logger,
      intervalSeconds: settings.heartbeatIntervalSeconds,
      onJobsWaiting: () => this.jobs.pollNow(),
      onHostUnknown: () => this.reports.reportNow(),
      onLedgerBack: () => {
        this.results.wake();
        this.jobs.pollNow();
      },
    });
  }

  /** Starts every loop; resolves at once (the loops run until `stop`). */
  start(): void {
    if (this.stopController) throw new Error('the agent is already running');
    const controller = (this.stopController = new AbortController());
    const heartbeatsAfterFirstReport = { run: (stop: AbortSignal) => this.reports.firstRound.then(() => this.heartbeats.run(stop)) };
    const loops = [this.reports, heartbeatsAfterFirstReport, this.jobs, this.results].map((loop) =>
      loop.run(controller.signal).catch((error: unknown) => {
        this.logger.error(`a loop stopped on an unexpected error: ${(error as Error)?.stack ?? error}`);
      }),
    );
    this.running = Promise.all(loops);
  }

  /** Ask for a fresh report now (a `discover` job does this too). */
  reportNow(): void {
    this.reports.reportNow();
  }

  /**
   * Stops the loops: the job in hand finishes and its result is saved;
   * then one last attempt to deliver saved results (what is not delivered
   * stays in the state directory for the next start).
   */
  async stop(): Promise<void> {
    if (!this.stopController) return;
    this.stopController.abort();
    await this.running;
    this.stopController = undefined;
    await this.results.flush().catch(() => false);
  }
}
