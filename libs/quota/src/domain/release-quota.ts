import { assertConsumerId, assertConsumerList } from './consumer-id';
import { assertQuotaProjectId } from './quota-project';
import type { ReleaseQuota } from './quota.commands';
import type { QuotaReleased } from './quota.events';
import type { QuotaState } from './quota.state';

/**
 * One Released per consumer that holds a reservation. Ids that hold nothing
 * (unknown, already released, or named twice) are ignored, so a retried or
 * redelivered release appends nothing.
 */
export function decideReleaseQuota(command: ReleaseQuota, state: QuotaState): QuotaReleased[] {
  const { project } = command;
  assertQuotaProjectId(project);
  const ids: unknown = command.consumerIds;
  assertConsumerList(ids, 'consumerIds');
  ids.forEach((consumerId, index) => assertConsumerId(consumerId, `consumerIds[${index}]`));
  const events: QuotaReleased[] = [];
  for (const consumerId of new Set(ids as readonly string[])) {
    const resources = state.reservations.get(consumerId);
    if (resources) events.push({ type: 'quota.Released', data: { project, consumerId, resources } });
  }
  return events;
}
