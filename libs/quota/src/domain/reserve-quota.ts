import { assertConsumerId, assertConsumerList } from './consumer-id';
import { assertQuotaProjectId } from './quota-project';
import { parseReservedResources, sameResources } from './quota-resources';
import type { QuotaConsumer, ReserveQuota } from './quota.commands';
import { QuotaConsumerConflictError, QuotaExceededError, QuotaInvalidError } from './quota.errors';
import type { QuotaReserved } from './quota.events';
import type { QuotaState } from './quota.state';

/**
 * All or nothing: one Reserved per consumer not yet holding its
 * reservation, or an error and no event at all. A consumer that already
 * holds exactly these amounts is skipped (a retried command is harmless);
 * one holding other amounts is a conflict. Resources without a limit are
 * unlimited but still counted.
 */
export function decideReserveQuota(command: ReserveQuota, state: QuotaState): QuotaReserved[] {
  const { project } = command;
  assertQuotaProjectId(project);
  const consumers = parseConsumers(command.consumers);

  const fresh = consumers.filter(({ consumerId, resources }) => {
    const held = state.reservations.get(consumerId);
    if (held && !sameResources(held, resources)) throw new QuotaConsumerConflictError(project, consumerId, held, resources);
    return !held;
  });

  for (const [resource, requested] of totalsOf(fresh)) {
    const limit = state.limits[resource];
    const inUse = state.usage[resource] ?? 0;
    if (limit !== undefined && inUse + requested > limit) throw new QuotaExceededError({ project, resource, limit, inUse, requested });
  }
  return fresh.map(({ consumerId, resources }) => ({ type: 'quota.Reserved', data: { project, consumerId, resources } }));
}

function parseConsumers(list: unknown): QuotaConsumer[] {
  assertConsumerList(list, 'consumers');
  const seen = new Set<string>();
  return list.map((consumer, index) => {
    const path = `consumers[${index}]`;
    if (typeof consumer !== 'object' || consumer === null) throw new QuotaInvalidError(path, 'must be an object', consumer);
    const { consumerId, resources } = consumer as Partial<QuotaConsumer>;
    assertConsumerId(consumerId, `${path}.consumerId`);
    if (seen.has(consumerId)) throw new QuotaInvalidError(`${path}.consumerId`, 'appears twice in the command', consumerId);
    seen.add(consumerId);
    return { consumerId, resources: parseReservedResources(resources, `${path}.resources`) };
  });
}

/** Requested amount per resource, in the order resources first appear. */
function totalsOf(consumers: readonly QuotaConsumer[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const { resources } of consumers) {
    for (const [resource, amount] of Object.entries(resources)) totals.set(resource, (totals.get(resource) ?? 0) + amount);
  }
  return totals;
}
