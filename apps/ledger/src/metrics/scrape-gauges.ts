import { Inject, Injectable, Optional } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { type PlacementReconciler, PlacementSyncQueries } from '@ledger/placement';
import { PLACEMENT_RECONCILER } from '@ledger/placement/nest';
import { type ProcessorRuntime, type ReactorRuntime, reactorKey, type SqlDatabase } from '@ledger/processing';
import { LiveViewQueries } from '@ledger/projections/inventory';
import { JobQueries } from '@ledger/projections/jobs';
import { QuotaQueries } from '@ledger/projections/quota';
import { type WorkflowRuntime, WorkflowQueries } from '@ledger/workflows';
import { Counter, Gauge, type Registry } from 'prom-client';
import { LEDGER_CONFIG, LEDGER_METRICS, PROCESSOR_RUNTIME, REACTOR_RUNTIME, READ_MODEL_DB, WORKFLOW_RUNTIME } from '../infrastructure/tokens';
import type { LedgerMetrics } from './ledger-metrics';
import { lagSeconds, type ProcessorPoint } from './processor-lag';

/** Reads what one group of gauges shows; resolves to the writes, made together once every read is back. */
type Source = () => Promise<() => void>;

/**
 * The gauges read at scrape time from what the ledger already knows: the
 * processors' status, and COUNT … GROUP BY queries on the read models (never
 * rows scanned in JS, so a scrape costs the same with 10,000 hosts as with
 * ten). Read-model gauges are the same on every replica sharing the
 * database; processor gauges are this process's (a processor on standby
 * follows the checkpoint of the instance that runs it; one that is not run
 * here is left out).
 */
@Injectable()
export class ScrapeGauges {
  private readonly g: ScrapeGaugeSet;
  private readonly placementSync: PlacementSyncQueries;
  private readonly sources: Readonly<Record<string, { read: Source; gauges: readonly Gauge[] }>>;

  constructor(
    @Inject(LEDGER_METRICS) metrics: LedgerMetrics,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODEL_DB) db: SqlDatabase,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Optional() @Inject(PROCESSOR_RUNTIME) private readonly projections?: ProcessorRuntime,
    @Optional() @Inject(REACTOR_RUNTIME) private readonly reactors?: ReactorRuntime,
    @Optional() @Inject(WORKFLOW_RUNTIME) private readonly workflowRuntime?: WorkflowRuntime,
    @Optional() @Inject(PLACEMENT_RECONCILER) private readonly placementReconciler?: PlacementReconciler | null,
  ) {
    this.g = defineGauges(metrics.registry);
    this.placementSync = new PlacementSyncQueries(db);
    const jobs = new JobQueries(db);
    const liveView = new LiveViewQueries(db);
    const quota = new QuotaQueries(db);
    const workflows = new WorkflowQueries(db);
    this.sources = {
      processors: { read: () => this.readProcessors(), gauges: [this.g.head, this.g.processorPosition, this.g.processorLagEvents, this.g.processorLagSeconds, this.g.processorState, this.g.parked] },
      placement: { read: () => this.readPlacement(), gauges: [this.g.placementHosts, this.g.placementUnavailable] },
      workflows: { read: async () => setEach(this.g.workflows, (await workflows.counts()).map((row) => [{ workflow: row.name, state: row.status, step: row.step ?? '' }, row.instances])), gauges: [this.g.workflows] },
      jobs: { read: async () => setEach(this.g.jobs, (await jobs.countsByStateAndKind()).map((row) => [{ state: row.state, kind: row.kind }, row.jobs])), gauges: [this.g.jobs] },
      agents: { read: async () => setEach(this.g.agents, Object.entries(await liveView.agentCounts()).map(([status, hosts]) => [{ status }, hosts])), gauges: [this.g.agents] },
      quota: { read: () => this.readQuota(quota), gauges: [this.g.quotaUsed, this.g.quotaLimit] },
    };
  }

  /** Reads every source at once, then writes every gauge; a source that fails leaves its gauges empty and is counted. */
  async refresh(): Promise<void> {
    const names = Object.keys(this.sources);
    const results = await Promise.allSettled(names.map((name) => this.sources[name].read()));
    results.forEach((result, index) => {
      const source = this.sources[names[index]];
      for (const gauge of source.gauges) gauge.reset();
      if (result.status === 'fulfilled') result.value();
      else this.g.sourceFailures.inc({ source: names[index] });
    });
  }

  private async readProcessors(): Promise<() => void> {
    const [head, projections, reactors, workflows] = await Promise.all([
      this.store.headPosition(),
      this.projections?.status() ?? [],
      this.reactors?.status() ?? [],
      this.workflowRuntime?.status() ?? [],
    ]);
    const points: ProcessorPoint[] = [
      ...projections.map((status) => ({ processor: status.name, state: status.state, position: status.position, lag: status.lag })),
      ...reactors.map((status) => ({ processor: reactorKey(status.name), state: status.state, position: status.position, lag: status.lag, parked: status.parked })),
      ...workflows.map((status) => ({ processor: status.name, state: status.state, position: status.position, lag: status.lag })),
    ].filter((point) => point.state !== 'idle');
    const seconds = await lagSeconds(this.store, points, Date.now());
    return () => {
      this.g.head.set(head);
      for (const point of points) {
        const processor = { processor: point.processor };
        this.g.processorPosition.set(processor, point.position);
        this.g.processorLagEvents.set(processor, point.lag);
        this.g.processorLagSeconds.set(processor, point.lag > 0 ? (seconds.get(point.position) ?? 0) : 0);
        this.g.processorState.set({ ...processor, state: point.state }, 1);
        if (point.parked !== undefined) this.g.parked.set(processor, point.parked);
      }
    };
  }

  private async readPlacement(): Promise<() => void> {
    if (this.config.placement.endpoint === undefined) return () => undefined;
    const counts = await this.placementSync.counts();
    const reconciler = this.placementReconciler?.status();
    return () => {
      setEach(this.g.placementHosts, Object.entries(counts).map(([state, hosts]) => [{ state }, hosts]))();
      if (reconciler) this.g.placementUnavailable.set(reconciler.placementUnavailableSince ? 1 : 0);
    };
  }

  private async readQuota(quota: QuotaQueries): Promise<() => void> {
    const rows = await quota.usageAndLimits();
    return () => {
      for (const row of rows) {
        const labels = { project: row.project, resource: row.resource };
        this.g.quotaUsed.set(labels, row.used);
        if (row.limit !== null) this.g.quotaLimit.set(labels, row.limit);
      }
    };
  }
}

function setEach(gauge: Gauge, values: readonly (readonly [Record<string, string>, number])[]): () => void {
  return () => {
    for (const [labels, value] of values) gauge.set(labels, value);
  };
}

/** The gauges ScrapeGauges writes, in `registry`. */
function defineGauges(registry: Registry) {
  const gauge = (name: string, help: string, labelNames: readonly string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });
  return {
    head: gauge('ledger_eventstore_head_position', "The event log's head: the position of the last event appended"),
    processorPosition: gauge('ledger_processor_position', 'Position up to which a processor has processed the log', ['processor']),
    processorLagEvents: gauge('ledger_processor_lag_events', "Events in the log after a processor's position", ['processor']),
    processorLagSeconds: gauge('ledger_processor_lag_seconds', 'How long ago the oldest event a processor has not processed was recorded (0: caught up)', ['processor']),
    processorState: gauge('ledger_processor_state', "1 for a processor's current state (catching-up, live, standby, failed; reactors also unavailable, retrying, stalled)", ['processor', 'state']),
    parked: gauge('ledger_processor_parked_events', 'Events a reactor parked for an operator (GET /api/v1/reactors/{name}/parked)', ['processor']),
    placementHosts: gauge('ledger_placement_hosts', 'Hosts per Placement sync state', ['state']),
    placementUnavailable: gauge('ledger_placement_unavailable', '1 while the Placement reconciler run by this process cannot reach Placement'),
    workflows: gauge('ledger_workflows', 'Workflow instances per workflow, status and current step (step "" when none runs)', ['workflow', 'state', 'step']),
    jobs: gauge('ledger_jobs', 'Jobs per state and kind', ['state', 'kind']),
    agents: gauge('ledger_agents', "Registered hosts per agent status: up, lost, unknown (never seen since liveness was tracked)", ['status']),
    quotaUsed: gauge('ledger_quota_used', 'Quota used per project and resource class (or capacity:… resource)', ['project', 'resource']),
    quotaLimit: gauge('ledger_quota_limit', 'Quota limit per project and resource; absent where none is set (unlimited)', ['project', 'resource']),
    sourceFailures: new Counter({
      name: 'ledger_metrics_source_failures_total',
      help: 'Scrapes in which one source of gauges could not be read; its gauges are empty in that scrape',
      labelNames: ['source'],
      registers: [registry],
    }),
  };
}

type ScrapeGaugeSet = ReturnType<typeof defineGauges>;
