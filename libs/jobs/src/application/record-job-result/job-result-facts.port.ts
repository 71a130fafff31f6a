import type { CommandContext, Participant, RecordedEvent, SchemaVersions } from '@ledger/eventstore';
import type { DomainEvent } from '@ledger/kernel';
import type { JobCompleted, JobFailed, JobRequested } from '../../domain/job.events';

/**
 * Nest token of what another context reads in a job's result (JobResultFacts),
 * provided where that context runs: the inventory records a carve's partition,
 * a program's region, a clean on the device's stream. Absent, results are
 * recorded alone and the facts follow through that context's reactor.
 */
export const JOB_RESULT_FACTS = Symbol('JOB_RESULT_FACTS');

/** The stream a job's result is a fact of, and the fact. */
export interface JobResultFactTarget {
  /** The aggregate the fact goes to, with the context its events carry (as the job's requester asked it). */
  readonly participant: Participant<unknown, DomainEvent> & { readonly context: CommandContext };
  readonly schemaVersions: SchemaVersions;
  /**
   * The fact's events over the aggregate's state: [] when the result means
   * nothing there, when it is recorded already, or when the aggregate refuses
   * it (the context's reactor then meets the refusal, and parks it).
   */
  decide(state: unknown, finished: JobCompleted | JobFailed): readonly DomainEvent[];
}

/**
 * Where a job's result is a fact of another aggregate, that fact is recorded
 * in the result's own append (docs/workflows.md, "Decided together"): a
 * carving bind's claim then finds the partition carved, instead of waiting
 * for the reactor's separate append on the same device. Undefined: the job's
 * result is a fact of nothing else.
 */
export type JobResultFacts = (requested: RecordedEvent & JobRequested) => JobResultFactTarget | undefined;
