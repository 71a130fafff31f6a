import type { AggregateCache, RecordedEvent } from '@ledger/eventstore';
import type { JobCompleted, JobFailed, JobKind, JobRequested, JobResultFacts } from '@ledger/jobs';
import { type DeviceState, deviceDecider } from '../domain/device.decider';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../domain/inventory.events';
import { deviceStream } from '../domain/streams';
import { cleanOutcomeOfJob } from './clean-outcome-of-job';
import { deviceFactOfJob } from './device-fact-of-job';

/** The kinds whose result is a fact of the device's stream (cleanOutcomeOfJob, deviceFactOfJob; the spec checks they agree): others need not wait on the device. */
const DEVICE_FACT_KINDS: ReadonlySet<JobKind> = new Set<JobKind>(['carve', 'destroy', 'program', 'configure-vfs', 'clean']);

/** What a finished job means on its device's stream, or undefined: what the job-facts reactor records, and the result's own append. */
export function deviceFactOf(requested: RecordedEvent & JobRequested, finished: JobCompleted | JobFailed) {
  return cleanOutcomeOfJob(requested, finished) ?? deviceFactOfJob(requested, finished);
}

/**
 * The inventory's JobResultFacts: a device job's fact goes in its result's
 * append, over the device cache the device commands and the binds share,
 * recorded as the job's requester asked it (as the job-facts reactor
 * records it, which then finds it recorded: the device decider takes a
 * fact once by job id). A fact the device refuses is left out: the reactor
 * meets the refusal and parks it for an operator, as before.
 */
export function deviceFactsOfJobResults(cache: AggregateCache<DeviceState>): JobResultFacts {
  return (requested) => {
    const deviceUuid = (requested.data.params as { deviceUuid?: unknown }).deviceUuid;
    if (!DEVICE_FACT_KINDS.has(requested.data.kind) || typeof deviceUuid !== 'string') return undefined;
    const { actor, correlationId } = requested.metadata;
    return {
      participant: { stream: deviceStream(deviceUuid.toLowerCase()), decider: deviceDecider, cache, context: { actor, correlationId } },
      schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
      decide: (state, finished) => {
        const fact = deviceFactOf(requested, finished);
        if (!fact) return [];
        try {
          return deviceDecider.decide(fact, state as DeviceState);
        } catch {
          return [];
        }
      },
    };
  };
}
