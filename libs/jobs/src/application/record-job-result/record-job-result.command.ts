import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { JobCommandResult } from '../job-command.result';

export interface JobResultInput {
  readonly jobId: string;
  readonly outcome: 'completed' | 'failed';
  readonly evidence: unknown;
  /** Failures only: a stable code (default JOB.FAILED) and a reason. */
  readonly code?: unknown;
  readonly reason?: unknown;
}

/**
 * The agent's result (`POST /api/v1/jobs/{jobId}/result`): JobCompleted or
 * JobFailed with its evidence. A job finished already, by a result or by the
 * timeout, answers 409 JOB.ALREADY_FINISHED. Whether the caller may speak
 * for the job's host is the caller's check (see JobReader).
 */
export class RecordJobResultCommand extends LedgerCommand<JobCommandResult> {
  constructor(
    readonly input: JobResultInput,
    readonly context: CommandContext,
  ) {
    super();
  }
}
