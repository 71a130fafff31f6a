import type { CommandContext, EventStore, RecordedEvent } from '@ledger/eventstore';
import type { DeviceJobCommand } from '@ledger/inventory';
import { type JobCompleted, type JobFailed, type JobRequested, jobStream } from '@ledger/jobs';
import { type Reactor, ReactorRejectedError } from '@ledger/processing';
import { deviceFactOfJob } from './device-fact-of-job';

export interface DeviceFactsPorts {
  readonly store: Pick<EventStore, 'readStream'>;
  /** The inventory context's command side: runs the command on the device's stream. */
  readonly recordDeviceFact: (command: DeviceJobCommand, context: CommandContext) => Promise<unknown>;
}

/**
 * Turns finished program and configure-vfs jobs into facts on the device's
 * stream (RegionProgrammed, RegionProgramFailed, ShellProgrammed,
 * VfsConfigured): the jobs context records what the agent said, the
 * inventory context what it means for the device, and they talk through a
 * command. Its checkpoint is its pending work; a crash between the append
 * and the checkpoint re-sends the command, which the device decider makes
 * a no-op by job id. The fact is recorded as the job's requester asked it,
 * correlated with the job and caused by its result.
 */
export function deviceFactsReactor(ports: DeviceFactsPorts): Reactor {
  return {
    name: 'device-facts',
    handles: ['jobs.JobCompleted', 'jobs.JobFailed'],
    filter: { categories: ['job'] },
    // From the beginning: jobs finished before this reactor existed become facts too.
    startAt: 'beginning',
    async react(event) {
      const finished = event as RecordedEvent & (JobCompleted | JobFailed);
      const [requested] = await ports.store.readStream(jobStream(finished.data.jobId), { max: 1 });
      if (requested?.type !== 'jobs.JobRequested') throw new ReactorRejectedError(`job ${finished.data.jobId} has no JobRequested to say what it was`);
      const command = deviceFactOfJob(requested as RecordedEvent & JobRequested, finished);
      if (!command) return;
      const { actor, correlationId } = requested.metadata;
      await ports.recordDeviceFact(command, { actor, correlationId, causationId: finished.id });
    },
  };
}
