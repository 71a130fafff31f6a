import { Logger, type Provider } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { RequestJobCommand } from '@ledger/jobs';
import type { SqlDatabase } from '@ledger/processing';
import { JobRequestPort, RegistryCommandPort, WorkflowRuntime } from '@ledger/workflows';
import type { LedgerWorkflows } from './ledger-workflows';
import { READ_MODEL_DB, WORKFLOW_RUNTIME } from './tokens';

/**
 * The workflow runtime of the `processors` role. Its ports send through
 * this process's command bus, so the process must run the `conductor` role
 * too (the embedded setup runs every role): commands go to the registry's
 * handlers, jobs to the jobs context with an id derived from the dispatch.
 */
export function workflowRuntimeProvider(config: LedgerConfig, ledgerWorkflows: LedgerWorkflows): Provider {
  return {
    provide: WORKFLOW_RUNTIME,
    inject: [EVENT_STORE, READ_MODEL_DB, CommandBus],
    useFactory: (store: EventStore, db: SqlDatabase, bus: CommandBus) =>
      new WorkflowRuntime({
        store,
        db,
        workflows: ledgerWorkflows.workflows,
        commands: new RegistryCommandPort(ledgerWorkflows.commands(bus)),
        jobs: new JobRequestPort((request, context) => bus.execute(new RequestJobCommand(request, context))),
        owner: config.instanceId,
        leaseTtlMs: config.processorLeaseMs,
        logger: new Logger('Workflows'),
      }),
  };
}
