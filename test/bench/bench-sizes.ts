import type { ClosedLoopTiming } from './measure/closed-loop';

/** How much work each benchmark does. `--quick` picks the small set, for a smoke check. */
export interface BenchSizes {
  /** Hosts in the synthetic fleet whose reports make the inventory log. */
  readonly hosts: number;
  /** Reports per host (generation 0 discovers, later ones change VFs and GPUs). */
  readonly generations: number;
  /** Every tenth host's first GPU is disabled and enabled again between generations. */
  readonly maintenanceEvery: number;
  /** Concurrent commands while the inventory log is built. */
  readonly fixtureConcurrency: number;
  /** Closed-loop runs (append_N, ceiling_insert_commit): an untimed warm-up, then `rounds` windows of `measureMs`. */
  readonly warmupMs: number;
  readonly measureMs: number;
  /**
   * Closed loops measure this many windows, and one-shot measurements
   * (ceiling_insert_tx, ceiling_read, append_batch100, read_all) run this
   * many times; the best is reported (the machine is shared).
   */
  readonly rounds: number;
  /** Cyborg v2 over HTTP: timed requests per latency record (after a fifth as many untimed). */
  readonly httpSamples: number;
  /**
   * Cyborg v2 create → bind → delete flows: warm-up, then `rounds` windows;
   * the best window is reported. The flow code paths need over a thousand
   * flows before V8 has optimised them (CPU per flow halves meanwhile).
   */
  readonly flowTiming: ClosedLoopTiming;
  /** Hosts registered before GET /metrics is timed (metrics_scrape_ms). */
  readonly metricsHosts: number;
  /** The simulated fleet of agents_* (agents-scale.bench.ts). */
  readonly agents: AgentsScaleSizes;
  /** The simulated fleet of agents_100k_* against API replicas (agents-replicas.bench.ts). */
  readonly agentsReplicas: AgentsReplicasSizes;
  /** The fleet placement_* brings into a real Placement (placement.bench.ts). */
  readonly placement: { readonly hosts: number; readonly devicesPerHost: number };
  /** Timed calls per developer-tool latency (ledgerctl_*, node_start_ms, build_check_ms), after one untimed call. */
  readonly toolSamples: number;
  /** Events of the auditor's log (audit_*, who_held_ms, usage_report_1m_ms): the inventory fleet's history, scaled to about this many. */
  readonly auditEvents: number;
}

export interface AgentsScaleSizes {
  readonly hosts: number;
  readonly devicesPerHost: number;
  /** Report interval; each steady window lasts one interval. */
  readonly intervalSeconds: number;
  /** The agent's default heartbeat interval (AGENT_HEARTBEAT_INTERVAL_S). */
  readonly heartbeatSeconds: number;
  /** The slower heartbeat hosts register with, and of the window that prices one heartbeat. */
  readonly slowHeartbeatSeconds: number;
  /** Untimed time before each window, after the rate has changed (at least one heartbeat interval before the default-heartbeat window). */
  readonly warmupSeconds: number;
  /** Calls in flight at most (also how many hosts register at once). */
  readonly concurrency: number;
  /** Fraction of all devices changed in the churn round. */
  readonly churn: number;
}

/** agents_100k_*: `slowHeartbeatSeconds` is the heartbeat hosts register with, long enough that none goes lost before every host is registered. */
export interface AgentsReplicasSizes extends AgentsScaleSizes {
  /** Hosts whose telemetry is read at the end, evenly spread over the fleet. */
  readonly telemetrySample: number;
}

export const DEFAULT_SIZES: BenchSizes = {
  hosts: 4000,
  generations: 4,
  maintenanceEvery: 10,
  fixtureConcurrency: 64,
  warmupMs: 500,
  measureMs: 1500,
  rounds: 3,
  httpSamples: 1000,
  flowTiming: { warmupMs: 8000, measureMs: 2000, rounds: 5 },
  metricsHosts: 10_000,
  agents: { hosts: 10_000, devicesPerHost: 8, intervalSeconds: 60, heartbeatSeconds: 15, slowHeartbeatSeconds: 60, warmupSeconds: 10, concurrency: 64, churn: 0.01 },
  agentsReplicas: {
    hosts: 100_000,
    devicesPerHost: 8,
    intervalSeconds: 60,
    heartbeatSeconds: 15,
    slowHeartbeatSeconds: 3600,
    warmupSeconds: 15,
    concurrency: 128,
    // 800 devices, as many as the 10,000-host round churns.
    churn: 0.001,
    telemetrySample: 1000,
  },
  placement: { hosts: 1000, devicesPerHost: 8 },
  toolSamples: 21,
  auditEvents: 1_000_000,
};

export const QUICK_SIZES: BenchSizes = {
  hosts: 200,
  generations: 3,
  maintenanceEvery: 10,
  fixtureConcurrency: 16,
  warmupMs: 100,
  measureMs: 500,
  rounds: 1,
  httpSamples: 200,
  flowTiming: { warmupMs: 1000, measureMs: 3000, rounds: 1 },
  metricsHosts: 200,
  agents: { hosts: 200, devicesPerHost: 8, intervalSeconds: 6, heartbeatSeconds: 3, slowHeartbeatSeconds: 6, warmupSeconds: 3, concurrency: 16, churn: 0.01 },
  agentsReplicas: { hosts: 2000, devicesPerHost: 8, intervalSeconds: 12, heartbeatSeconds: 6, slowHeartbeatSeconds: 600, warmupSeconds: 3, concurrency: 32, churn: 0.01, telemetrySample: 100 },
  placement: { hosts: 50, devicesPerHost: 8 },
  toolSamples: 5,
  auditEvents: 20_000,
};
