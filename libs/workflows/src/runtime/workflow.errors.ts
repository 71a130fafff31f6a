import { ConflictError, LedgerError, NotFoundError } from '@ledger/kernel';

export class WorkflowNotFoundError extends NotFoundError {
  constructor(name: string, id?: string) {
    super('WORKFLOW.NOT_FOUND', id === undefined ? `no workflow named ${name} runs here` : `workflow ${name} has no instance ${id}`, { name, ...(id === undefined ? {} : { id }) });
  }
}

/** An operator's cancel or retry that the instance's status does not allow. */
export class WorkflowStateError extends ConflictError {
  constructor(name: string, id: string, status: string, wanted: string) {
    // `workflowStatus`, not `status`: problem details already use `status` for the HTTP status.
    super('WORKFLOW.BAD_STATE', `workflow ${name} ${id} is ${status}; ${wanted}`, { name, id, workflowStatus: status });
  }
}

/** A caller waited for an instance to end and it was still running when the wait ran out. */
export class WorkflowWaitTimedOutError extends LedgerError {
  constructor(name: string, id: string, timeoutMs: number) {
    super('WORKFLOW.WAIT_TIMED_OUT', 504, `workflow ${name} ${id} was still running after ${timeoutMs} ms`, { name, id });
  }
}
