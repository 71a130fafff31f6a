import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import type { SqlDatabase } from '@ledger/processing';
import {
  ensureLiveViewTables,
  type HostLivenessRow,
  type HostTelemetryHistoryRow,
  type HostTelemetryRow,
  keptSamples,
  mergeHostLiveness,
  stepOf,
  writeLiveView,
} from '@ledger/projections/inventory';
import { LEDGER_CONFIG, READ_MODEL_DB } from '../infrastructure/tokens';

/** A device's part of a heartbeat, once the command side resolved it to a reported device. */
export interface DeviceSample {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  readonly health: string;
  readonly healthReason: string | null;
  readonly telemetry: Readonly<Record<string, number>>;
}

/**
 * The latest samples this replica received, written to the live-view
 * tables every LEDGER_TELEMETRY_FLUSH_MS with a few multi-row upserts: a
 * heartbeat costs no SQL write of its own, and a host that beats twice
 * between flushes is written once, as two rows (its liveness, its devices'
 * samples together). The host's samples are also kept one row per step for
 * LEDGER_TELEMETRY_HISTORY_MINUTES (the console's charts): the first
 * heartbeat of a step this replica receives from the host is kept, the
 * step's others are not written again. Telemetry never becomes an event.
 */
@Injectable()
export class TelemetryLiveView implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TelemetryLiveView');
  private hosts = new Map<string, HostLivenessRow>();
  private telemetry = new Map<string, HostTelemetryRow>();
  private history: HostTelemetryHistoryRow[] = [];
  /** Per host, the step whose samples this replica kept last. */
  private readonly keptStep = new Map<string, number>();
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(READ_MODEL_DB) private readonly db: SqlDatabase,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await ensureLiveViewTables(this.db);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => this.logger.warn(`live view not written, retrying: ${(error as Error)?.message ?? String(error)}`));
    }, this.config.telemetryFlushMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch((error: unknown) => this.logger.error(`last live view write failed: ${(error as Error)?.message ?? String(error)}`));
  }

  recordHeartbeat(hostname: string, atMs: number, agent: { agentVersion: string; intervalSeconds: number }, samples: readonly DeviceSample[]): void {
    this.putHost({ hostname, last_seen_ms: atMs, heartbeat_ms: atMs, interval_ms: agent.intervalSeconds * 1000, agent_version: agent.agentVersion });
    const devices = samples.map((sample) => ({
      device_uuid: sample.deviceUuid,
      pci_address: sample.pciAddress,
      health: sample.health,
      health_reason: sample.healthReason,
      telemetry: sample.telemetry,
    }));
    this.putTelemetry({ hostname, heartbeat_ms: atMs, devices });
    if (this.config.telemetryHistoryMinutes === 0) return;
    const stepMs = this.config.telemetryHistoryStepSeconds * 1000;
    const step = stepOf(atMs, stepMs);
    if ((this.keptStep.get(hostname) ?? -1) >= step) return;
    this.keptStep.set(hostname, step);
    this.history.push(keptSamples({ hostname, heartbeat_ms: atMs, devices }, stepMs));
  }

  /** A report arrived: the host was seen, its last heartbeat stays. */
  recordSighting(hostname: string, atMs: number): void {
    this.putHost({ hostname, last_seen_ms: atMs, heartbeat_ms: null, interval_ms: null, agent_version: null });
  }

  /** Writes what arrived since the last flush; flushes run one after another. Resolves once this replica's samples are readable everywhere. */
  flush(): Promise<void> {
    const run = this.queue.then(() => this.writePending());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private putTelemetry(row: HostTelemetryRow): void {
    const pending = this.telemetry.get(row.hostname);
    if (pending === undefined || pending.heartbeat_ms <= row.heartbeat_ms) this.telemetry.set(row.hostname, row);
  }

  private putHost(row: HostLivenessRow): void {
    const pending = this.hosts.get(row.hostname);
    this.hosts.set(row.hostname, pending ? mergeHostLiveness(pending, row) : row);
  }

  private async writePending(): Promise<void> {
    if (this.hosts.size === 0 && this.telemetry.size === 0) return;
    const hosts = this.hosts;
    const telemetry = this.telemetry;
    const history = this.history;
    this.hosts = new Map();
    this.telemetry = new Map();
    this.history = [];
    try {
      const window = { stepMs: this.config.telemetryHistoryStepSeconds * 1000, keepMs: this.config.telemetryHistoryMinutes * 60_000, nowMs: Date.now() };
      const rule = { lostAfterIntervals: this.config.agentLostAfterIntervals, defaultIntervalMs: this.config.agentHeartbeatSeconds * 1000 };
      await this.db.transaction((tx) => writeLiveView(tx, [...hosts.values()], [...telemetry.values()], { rows: history, window }, rule));
    } catch (error) {
      // Put the rows back under anything newer that arrived meanwhile, for the next flush.
      for (const row of hosts.values()) this.putHost(row);
      for (const row of telemetry.values()) this.putTelemetry(row);
      this.history = [...history, ...this.history];
      throw error;
    }
  }
}
