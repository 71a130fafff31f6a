import { type CommandContext, handleCommand, type RecordedEvent } from '@ledger/eventstore';
import {
  type DeviceCommand,
  deviceDecider,
  deviceStream,
  type HostFenceCommand,
  type HostLivenessCommand,
  type HostProvisioningCommand,
  hostFenceDecider,
  hostInventoryDecider,
  hostProvisioningDecider,
  hostLivenessDecider,
  hostStream,
  type ReportedDevice,
} from '@ledger/inventory';
import { type JobCommand, jobDecider, jobStream } from '@ledger/jobs';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore } from '@ledger/processing/testing';

/** A host's report (the devices it lists), a device command, a liveness or provisioning command, or a job command. */
export type PlacementStep =
  | { readonly hostname: string; readonly report: readonly ReportedDevice[] }
  | DeviceCommand
  | HostLivenessCommand
  | HostProvisioningCommand
  | HostFenceCommand
  | (JobCommand & { readonly jobId: string });

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: 'placement-history' };

/** Epoch of the histories: 2026-03-01T00:00:00Z; appends are one second apart. */
export const at = (seconds: number): string => new Date(Date.UTC(2026, 2, 1) + seconds * 1000).toISOString();

/** The events the real deciders record for the steps, in log order (a refused step records nothing and fails the test). */
export async function recordPlacementHistory(steps: readonly PlacementStep[]): Promise<RecordedEvent[]> {
  let tick = 0;
  const store = new InMemoryEventStore(() => new Date(Date.UTC(2026, 2, 1) + 1000 * tick++));
  for (const step of steps) {
    if ('report' in step) {
      const command = { type: 'ReportHost', report: { hostname: step.hostname, devices: step.report }, receivedAt: at(0) } as const;
      await handleCommand(store, hostStream(step.hostname), hostInventoryDecider, command, context);
    } else if (step.type === 'RecordAgentSeen' || step.type === 'MarkAgentLost') {
      await handleCommand(store, hostStream(step.hostname), hostLivenessDecider, step, context);
    } else if (step.type === 'StartHostProvisioning' || step.type === 'CompleteHostProvisioning' || step.type === 'FailHostProvisioning') {
      await handleCommand(store, hostStream(step.hostname), hostProvisioningDecider, step, context);
    } else if (step.type === 'FenceHost' || step.type === 'UnfenceHost') {
      await handleCommand(store, hostStream(step.hostname), hostFenceDecider, step, context);
    } else if ('jobId' in step && step.type !== 'RecordCleaned' && step.type !== 'RecordCleanFailed') {
      await handleCommand(store, jobStream(step.jobId), jobDecider, step, context);
    } else {
      await handleCommand(store, deviceStream(step.deviceUuid), deviceDecider, step as DeviceCommand, context);
    }
  }
  return (await store.readAll({ max: 10_000 })).events;
}
