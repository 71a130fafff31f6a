import type { EventStore } from '@ledger/eventstore';
import { InventoryErrorCodes, hostStream, isValidHostname } from '@ledger/inventory';
import { NotFoundError } from '@ledger/kernel';

/** Jobs go only to hosts whose agent has reported at least once: an unknown host has no agent to poll. */
export async function assertHostKnown(store: EventStore, hostname: string): Promise<void> {
  if (isValidHostname(hostname) && (await store.readStream(hostStream(hostname), { max: 1 })).length > 0) return;
  throw new NotFoundError(InventoryErrorCodes.HOST_NOT_FOUND, `host ${hostname} has never reported`, { hostname });
}
