import { handleCommand, loadAggregate, type CommandContext, type RecordedEvent } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { type QuotaCommand, type QuotaConsumer, quotaDecider, quotaStream } from '@ledger/quota';
import { InMemoryEventStore } from '@ledger/processing/testing';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: 'quota-history' };

export interface QuotaHistory {
  readonly events: RecordedEvent[];
  /** What the command side holds per project at the end: the reference the projection must match. */
  authoritative(project: string): Promise<{ limits: Record<string, number>; usage: Record<string, number>; consumers: string[] }>;
}

/**
 * Runs commands through the real decider; refused ones (QUOTA.EXCEEDED…)
 * record nothing, as in the ledger. Appends are one second apart, so
 * reservation times tell them apart.
 */
export async function recordQuotaHistory(commands: readonly QuotaCommand[]): Promise<QuotaHistory> {
  let tick = 0;
  const store = new InMemoryEventStore(() => new Date(Date.UTC(2026, 2, 1) + 1000 * tick++));
  for (const command of commands) {
    await handleCommand(store, quotaStream(command.project), quotaDecider, command, context).catch(() => undefined);
  }
  return {
    events: (await store.readAll({ max: 100_000 })).events,
    async authoritative(project) {
      const { state } = await loadAggregate(store, quotaStream(project), quotaDecider);
      return { limits: { ...state.limits }, usage: { ...state.usage }, consumers: state.reservations.entries().map(([id]) => id) };
    },
  };
}

/** A deterministic mix over a few projects: limits set, lowered and removed; reservations that fit or not; releases. */
export function quotaCommandMix(count: number, projects = ['p1', 'p2', 'p3']): QuotaCommand[] {
  let seed = 7;
  // mulberry32: a tiny deterministic generator in 32-bit integer arithmetic.
  const next = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
  };
  const resources = ['FPGA', 'PGPU', 'capacity:memoryGiB', 'CUSTOM_NPU'];
  const commands: QuotaCommand[] = [];
  for (let i = 0; i < count; i++) {
    const project = projects[next(projects.length)];
    const roll = next(10);
    if (roll === 0) {
      const resource = resources[next(resources.length)];
      commands.push({ type: 'SetQuotaLimits', project, limits: { [resource]: next(4) === 0 ? null : next(12) } });
    } else if (roll < 7) {
      const consumers = Array.from({ length: 1 + next(3) }, (_, c): QuotaConsumer => ({
        consumerId: `arq-${i}-${c}`,
        resources: next(2) === 0 ? { FPGA: 1 + next(2) } : { PGPU: 1, 'capacity:memoryGiB': 16 * (1 + next(4)) },
      }));
      commands.push({ type: 'ReserveQuota', project, consumers });
    } else {
      const ids = Array.from({ length: 1 + next(3) }, () => `arq-${next(i + 1)}-${next(3)}`);
      commands.push({ type: 'ReleaseQuota', project, consumerIds: ids });
    }
  }
  return commands;
}
