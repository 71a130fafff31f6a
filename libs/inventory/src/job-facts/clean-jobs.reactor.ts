import type { CommandContext, RecordedEvent } from '@ledger/eventstore';
import type { CleanHandle } from '@ledger/jobs';
import { isLedgerError } from '@ledger/kernel';
import type { Reactor } from '@ledger/processing';
import type { RecordCleanFailed } from '../domain/device-cleaning';
import type { DeviceCleaningStarted } from '../domain/inventory.events';
import { cleanJobId } from './clean-outcome-of-job';

/** Where a device's clean job goes and what it names: from the inventory read model. */
export interface CleanTarget {
  readonly hostname: string;
  readonly pciAddress: string;
  readonly handles: readonly CleanHandle[];
}

export interface CleanJobsPorts {
  /** The device's host and address, and the named handles' kinds and addresses; undefined when the device is no longer reported. */
  readonly cleanTarget: (deviceUuid: string, handleUuids: readonly string[]) => Promise<CleanTarget | undefined>;
  /** Asks the host's agent for the job (the jobs context's RequestJob); asking again for the same job id records nothing. */
  readonly requestJob: (request: { hostname: string; kind: 'clean'; params: unknown; jobId: string }, context: CommandContext) => Promise<unknown>;
  /** Records on the device's stream that the attempt's clean could not even be asked (the agent is lost, the device gone). */
  readonly recordCleanFailed: (command: RecordCleanFailed, context: CommandContext) => Promise<unknown>;
  readonly now?: () => Date;
}

/**
 * Turns a cleaning start into the clean job on the device's agent. The job
 * id is the attempt's, so a crash before the checkpoint re-asks for the
 * same job and records nothing new. When the job cannot be asked (the
 * agent is lost or never ran, the device is gone) the attempt is recorded
 * clean-failed at once, with the refusal as its reason: the handles stay
 * reserved for an operator rather than waiting on an agent that may not
 * come back. The job's outcome is recorded by the job-facts reactor.
 */
export function cleanJobsReactor(ports: CleanJobsPorts): Reactor {
  const now = ports.now ?? (() => new Date());
  return {
    name: 'clean-jobs',
    handles: ['inventory.DeviceCleaningStarted'],
    filter: { categories: ['device'] },
    startAt: 'beginning',
    async react(event) {
      const { data, metadata, id } = event as RecordedEvent & DeviceCleaningStarted;
      const context: CommandContext = { actor: metadata.actor, correlationId: metadata.correlationId, causationId: id };
      const jobId = cleanJobId(data.deviceUuid, data.attempt);
      const failed = (code: string, reason: string) =>
        ports.recordCleanFailed({ type: 'RecordCleanFailed', deviceUuid: data.deviceUuid, attempt: data.attempt, jobId, ran: [], code, reason, failedAt: now().toISOString() }, context);
      const target = await ports.cleanTarget(data.deviceUuid, data.handleUuids);
      if (!target) return void (await failed('INVENTORY.DEVICE_NOT_FOUND', `device ${data.deviceUuid} is no longer reported by any host`));
      const params = { deviceUuid: data.deviceUuid, pciAddress: target.pciAddress, attempt: data.attempt, handles: target.handles };
      try {
        await ports.requestJob({ hostname: target.hostname, kind: 'clean', params, jobId }, context);
      } catch (error) {
        // A refusal (the agent is unavailable, the host unknown) ends this attempt; anything else is retried by the runtime.
        if (!isLedgerError(error) || error.status >= 500) throw error;
        await failed(error.code, error.message);
      }
    },
  };
}
