import type { CommandContext, EventStore, RecordedEvent } from '@ledger/eventstore';
import { type JobCompleted, type JobFailed, type JobRequested, jobStream } from '@ledger/jobs';
import { type Reactor, ReactorRejectedError } from '@ledger/processing';
import type { RecordCleaned, RecordCleanFailed } from '../domain/device-cleaning';
import type { DeviceJobCommand } from '../domain/device-job-facts';
import type { RecordPartitionCarved, RecordPartitionDestroyed } from '../domain/partitioning/device-partitions';
import type { RecordDriverOutcome } from '../domain/host-drivers.decider';
import { deviceFactOf } from './device-facts-of-results';
import { driverOutcomeOfJob } from './driver-outcome-of-job';

export interface JobFactsPorts {
  readonly store: Pick<EventStore, 'readStream'>;
  /** Runs the command on the device's stream (the inventory's device commands). */
  readonly recordDeviceFact: (
    command: DeviceJobCommand | RecordPartitionCarved | RecordPartitionDestroyed | RecordCleaned | RecordCleanFailed,
    context: CommandContext,
  ) => Promise<unknown>;
  /** Runs the command on the host's stream (the inventory's host driver commands). */
  readonly recordDriverOutcome: (command: RecordDriverOutcome, context: CommandContext) => Promise<unknown>;
}

/**
 * The inventory's reading of finished jobs: the jobs context records what
 * the agent said on the job's stream, and this reactor records what it
 * means on the streams the inventory owns — a driver job's outcome on the
 * host's stream (DriverInstalled, DriverUninstalled, DriverFailed), a
 * program or configure-vfs job's on the device's (RegionProgrammed,
 * RegionProgramFailed, ShellProgrammed, VfsConfigured), a carve or destroy
 * job's too (PartitionCarved, PartitionDestroyed), a clean job's too
 * (DeviceCleaned, DeviceCleanFailed). Its checkpoint is its
 * pending work: a crash between the job's result and the fact loses nothing,
 * and a crash between the fact and the checkpoint re-sends the command,
 * which the host and device deciders make a no-op by job id. A fact is
 * recorded as the job's requester asked it, correlated with the job and
 * caused by its result.
 */
export function jobFactsReactor(ports: JobFactsPorts): Reactor {
  return {
    name: 'job-facts',
    handles: ['jobs.JobCompleted', 'jobs.JobFailed'],
    filter: { categories: ['job'] },
    // From the beginning: jobs finished before this reactor existed become facts too (those already recorded append nothing).
    startAt: 'beginning',
    async react(event) {
      const finished = event as RecordedEvent & (JobCompleted | JobFailed);
      const [requested] = await ports.store.readStream(jobStream(finished.data.jobId), { max: 1 });
      if (requested?.type !== 'jobs.JobRequested') throw new ReactorRejectedError(`job ${finished.data.jobId} has no JobRequested to say what it was`);
      const asked = requested as RecordedEvent & JobRequested;
      const { actor, correlationId } = asked.metadata;
      const context: CommandContext = { actor, correlationId, causationId: finished.id };
      const driverOutcome = driverOutcomeOfJob(asked, finished);
      if (driverOutcome) return void (await ports.recordDriverOutcome(driverOutcome, context));
      const deviceFact = deviceFactOf(asked, finished);
      if (deviceFact) await ports.recordDeviceFact(deviceFact, context);
    },
  };
}
