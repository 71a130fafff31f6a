import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { LedgerConfig } from '@ledger/config';
import { AUTO_FENCE_ACTOR, FenceHostCommand, HOST_LIVENESS_COMMANDS } from '@ledger/inventory';
import type { HostLivenessCommands } from '@ledger/inventory/nest';
import { SYSTEM_ACTOR, uuidV7 } from '@ledger/kernel';
import { acquireLease, ensureProcessingTables, releaseLease, type SqlDatabase } from '@ledger/processing';
import { ensureLiveViewTables, fillLostAfter, LiveViewQueries } from '@ledger/projections/inventory';
import { PlacementQueries } from '@ledger/projections/placement';
import { LEDGER_CONFIG, READ_MODEL_DB } from '../infrastructure/tokens';

const LEASE = 'agent-liveness';

/**
 * The processors role's watch over agents: every LEDGER_AGENT_LIVENESS_CHECK_MS
 * it records `inventory.AgentLost` for each host silent for
 * LEDGER_AGENT_LOST_AFTER_INTERVALS of its heartbeat intervals. One
 * instance watches at a time (its own lease beside the processors'). Hosts
 * count as seen no earlier than the moment this instance took the lease, so
 * a ledger that was down gives its agents a full window to come back
 * instead of declaring them all lost at once.
 * With LEDGER_AUTO_FENCE_AFTER_SECONDS set, it also fences each host lost
 * that long and not fenced yet (docs/operations.md, "Fencing a host").
 */
@Injectable()
export class AgentLivenessMonitor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AgentLiveness');
  private readonly queries: LiveViewQueries;
  /** While this instance holds the lease: since when. */
  private activeSinceMs: number | undefined;
  /** Hosts this instance marked lost, with the sighting they were lost after: not asked again until seen anew. */
  private readonly marked = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    @Inject(READ_MODEL_DB) private readonly db: SqlDatabase,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(HOST_LIVENESS_COMMANDS) private readonly liveness: HostLivenessCommands,
    /** Absent where no command bus runs (unit tests): no auto-fence then. */
    @Optional() @Inject(CommandBus) private readonly commands?: CommandBus,
  ) {
    this.queries = new LiveViewQueries(db);
  }

  async onApplicationBootstrap(): Promise<void> {
    await ensureProcessingTables(this.db);
    await ensureLiveViewTables(this.db);
    await fillLostAfter(this.db, { lostAfterIntervals: this.config.agentLostAfterIntervals, defaultIntervalMs: this.config.agentHeartbeatSeconds * 1000 });
    this.schedule();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    if (this.activeSinceMs !== undefined) await releaseLease(this.db, LEASE, this.config.instanceId).catch(() => undefined);
  }

  /** One look for silent hosts (also what tests call); resolves to the hosts recorded lost. */
  async checkOnce(nowMs = Date.now()): Promise<string[]> {
    if (!(await this.holdLease(nowMs))) return [];
    const overdue = await this.queries.overdueHosts({
      nowMs,
      seenNoEarlierThanMs: this.activeSinceMs!,
      lostAfterIntervals: this.config.agentLostAfterIntervals,
      defaultIntervalMs: this.config.agentHeartbeatSeconds * 1000,
    });
    const stillOverdue = new Map(overdue.map((host) => [host.hostname, host.lastSeenMs]));
    for (const [hostname, lastSeenMs] of this.marked) if (stillOverdue.get(hostname) !== lastSeenMs) this.marked.delete(hostname);
    const lost: string[] = [];
    for (const { hostname, lastSeenMs } of overdue) {
      if (this.marked.has(hostname)) continue;
      if (await this.markLost(hostname, lastSeenMs, nowMs)) lost.push(hostname);
    }
    await this.autoFence(nowMs);
    return lost;
  }

  /** Fences hosts lost longer than LEDGER_AUTO_FENCE_AFTER_SECONDS (off at 0); a host already fenced is left as it is. */
  private async autoFence(nowMs: number): Promise<void> {
    const afterSeconds = this.config.autoFenceAfterSeconds;
    if (afterSeconds === 0 || !this.commands) return;
    const placement = new PlacementQueries(this.db);
    for (const { hostname, lostAt } of await this.queries.lostSince(new Date(nowMs - afterSeconds * 1000).toISOString())) {
      if (await placement.isFenced(hostname)) continue;
      const context = { actor: { ...SYSTEM_ACTOR, user: AUTO_FENCE_ACTOR }, correlationId: uuidV7() };
      try {
        await this.commands.execute(new FenceHostCommand({ hostname, reason: `agent lost since ${lostAt}` }, context));
        this.logger.warn(`host ${hostname} fenced: its agent has been lost since ${lostAt}`);
      } catch (error) {
        this.logger.error(`could not fence ${hostname}: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }

  private async markLost(hostname: string, lastSeenMs: number, nowMs: number): Promise<boolean> {
    const lastSeenAt = new Date(lastSeenMs).toISOString();
    try {
      const result = await this.liveness.run(
        { type: 'MarkAgentLost', hostname, lastSeenAt, detectedAt: new Date(nowMs).toISOString() },
        { actor: SYSTEM_ACTOR, correlationId: uuidV7() },
      );
      this.marked.set(hostname, lastSeenMs);
      if (result.appended > 0) this.logger.warn(`agent of ${hostname} lost: nothing heard since ${lastSeenAt}`);
      return result.appended > 0;
    } catch (error) {
      this.logger.error(`could not record ${hostname} lost: ${(error as Error)?.message ?? String(error)}`);
      return false;
    }
  }

  private async holdLease(nowMs: number): Promise<boolean> {
    const ttlMs = Math.max(this.config.processorLeaseMs, 3 * this.config.agentLivenessCheckMs);
    const held = await acquireLease(this.db, { name: LEASE, owner: this.config.instanceId, now: nowMs, ttlMs });
    if (!held) {
      this.activeSinceMs = undefined;
      this.marked.clear();
    } else if (this.activeSinceMs === undefined) {
      this.activeSinceMs = nowMs;
    }
    return held;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.checkOnce()
        .catch((error: unknown) => this.logger.error(`liveness check failed: ${(error as Error)?.message ?? String(error)}`))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.config.agentLivenessCheckMs);
    this.timer.unref();
  }
}
