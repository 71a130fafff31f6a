import { ConflictError, NotFoundError } from '@ledger/kernel';

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
