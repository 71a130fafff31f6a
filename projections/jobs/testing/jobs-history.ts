import { type CommandContext, handleCommand, type RecordedEvent } from '@ledger/eventstore';
import { hostDriversDecider, hostStream } from '@ledger/inventory';
import { driverOutcomeOfJob } from '@ledger/inventory/job-facts';
import { isJobFinishedEvent, type JobCommand, type JobCompleted, type JobFailed, jobDecider, type JobRequested, jobStream } from '@ledger/jobs';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore } from '@ledger/processing/testing';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: 'jobs-history' };

/** Epoch of the histories: 2026-03-01T00:00:00Z; appends are one second apart. */
export const HISTORY_START = Date.UTC(2026, 2, 1);
export const at = (seconds: number): string => new Date(HISTORY_START + seconds * 1000).toISOString();

/**
 * Runs job commands through the real decider, as the ledger does, and
 * records the host-stream fact a finished driver job makes right after it,
 * as the inventory's job-facts reactor does. Refused commands record
 * nothing. Answers the log.
 */
export async function recordJobsHistory(commands: readonly JobCommand[]): Promise<RecordedEvent[]> {
  let tick = 0;
  const store = new InMemoryEventStore(() => new Date(HISTORY_START + 1000 * tick++));
  for (const command of commands) {
    const result = await handleCommand(store, jobStream(command.jobId), jobDecider, command, context).catch(() => undefined);
    if (!result?.events.some(isJobFinishedEvent)) continue;
    const events = await store.readStream(jobStream(command.jobId));
    const outcome = driverOutcomeOfJob(events[0] as RecordedEvent & JobRequested, events[events.length - 1] as RecordedEvent & (JobCompleted | JobFailed));
    if (outcome) await handleCommand(store, hostStream(outcome.hostname), hostDriversDecider, outcome, context);
  }
  return (await store.readAll({ max: 100_000 })).events;
}
