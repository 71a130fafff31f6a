import { handleCommand, type CommandContext, type RecordedEvent } from '@ledger/eventstore';
import {
  type AttributeCommand,
  attributeDecider,
  attributeStream,
  attributeUuidOf,
  deviceDecider,
  deviceStream,
  hostInventoryDecider,
  hostStream,
  type DeviceCommand,
  type HostLivenessCommand,
  hostLivenessDecider,
  type ReportedDevice,
} from '@ledger/inventory';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore } from '@ledger/processing/testing';

/** A host report (the devices it lists), a device command (maintenance, claims, health), an operator's attribute command or a liveness command. */
export type HistoryStep = { readonly report: readonly ReportedDevice[] } | DeviceCommand | AttributeCommand | HostLivenessCommand;

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: 'inventory-history' };

/**
 * The events the real deciders record for one host's steps, in log order.
 * Every append is stamped one second after the previous one, so times tell
 * the events apart.
 */
export async function recordHostHistory(hostname: string, steps: readonly HistoryStep[]): Promise<RecordedEvent[]> {
  let tick = 0;
  const store = new InMemoryEventStore(() => new Date(Date.UTC(2026, 2, 1) + 1000 * tick++));
  for (const step of steps) {
    if ('report' in step) {
      const command = { type: 'ReportHost', report: { hostname, devices: step.report }, receivedAt: '2026-03-01T00:00:00.000Z' } as const;
      await handleCommand(store, hostStream(hostname), hostInventoryDecider, command, context);
    } else if (step.type === 'CreateAttribute') {
      await handleCommand(store, attributeStream(attributeUuidOf(step.deployableUuid, step.key)), attributeDecider, step, context);
    } else if (step.type === 'RecordAgentSeen' || step.type === 'MarkAgentLost') {
      await handleCommand(store, hostStream(hostname), hostLivenessDecider, step, context);
    } else if (step.type === 'DeleteAttribute') {
      await handleCommand(store, attributeStream(step.uuid), attributeDecider, step, context);
    } else {
      await handleCommand(store, deviceStream(step.deviceUuid), deviceDecider, step, context);
    }
  }
  return (await store.readAll({ max: 10_000 })).events;
}
