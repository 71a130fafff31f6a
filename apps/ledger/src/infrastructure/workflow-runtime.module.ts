import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { BIND_WAIT_MS, BIND_WORKFLOWS } from '@ledger/allocation';
import type { LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { RequestJobCommand } from '@ledger/jobs';
import { PROVISION_WORKFLOWS } from '@ledger/provisioning';
import type { SharedLogTail, SqlDatabase } from '@ledger/processing';
import { JobRequestPort, RegistryCommandPort, type WorkflowCommandPort, WorkflowRuntime } from '@ledger/workflows';
import { tracedWorkflowAdvance } from '../tracing/traced-processors';
import { type LedgerWorkflows, ledgerWorkflows, withWorkflows } from './ledger-workflows';
import type { LedgerMetrics } from '../metrics/ledger-metrics';
import { LOG_TAIL, OPTIONAL_METRICS, READ_MODEL_DB, WORKFLOW_RUNTIME } from './tokens';

/**
 * The workflow runtime, in the `conductor` role: a bind request starts its
 * workflow and advances it in the request (no lease needed), and the
 * `processors` role starts the runtime's loops (under leases), which resume
 * whatever a crash interrupted and fire the timers. Its ports send through
 * this process's command bus: commands to the registry's handlers, jobs to
 * the jobs context with an id derived from the dispatch.
 */
@Module({})
export class WorkflowRuntimeModule {
  static forRoot(config: LedgerConfig, extra?: LedgerWorkflows): DynamicModule {
    const workflows = withWorkflows(ledgerWorkflows(), extra);
    return {
      module: WorkflowRuntimeModule,
      global: true,
      providers: [
        {
          provide: WORKFLOW_RUNTIME,
          // The processors role's tail, when this process has that role: its loops then read each append once with the others.
          inject: [EVENT_STORE, { token: LOG_TAIL, optional: true }, READ_MODEL_DB, CommandBus, ModuleRef, OPTIONAL_METRICS],
          useFactory: (store: EventStore, tail: SharedLogTail | undefined, db: SqlDatabase, bus: CommandBus, moduleRef: ModuleRef, metrics?: LedgerMetrics) =>
            new WorkflowRuntime({
              store,
              ...(tail ? { tail } : {}),
              db,
              workflows: workflows.workflows,
              commands: lazyCommandPort(() => new RegistryCommandPort(workflows.commands(moduleRef))),
              jobs: new JobRequestPort((request, context) => bus.execute(new RequestJobCommand(request, context))),
              owner: config.instanceId,
              leaseTtlMs: config.processorLeaseMs,
              logger: new Logger('Workflows'),
              observer: metrics?.processors,
              ...(config.tracing ? { aroundEvent: tracedWorkflowAdvance } : {}),
            }),
        },
        { provide: BIND_WORKFLOWS, useExisting: WORKFLOW_RUNTIME },
        { provide: BIND_WAIT_MS, useValue: config.bindTimeoutMs },
        { provide: PROVISION_WORKFLOWS, useExisting: WORKFLOW_RUNTIME },
      ],
      exports: [WORKFLOW_RUNTIME, BIND_WORKFLOWS, BIND_WAIT_MS, PROVISION_WORKFLOWS],
    };
  }
}

/** The registry is read at the first send: the contexts' handler providers exist by then, whatever order Nest made them in. */
function lazyCommandPort(make: () => WorkflowCommandPort): WorkflowCommandPort {
  let port: WorkflowCommandPort | undefined;
  return { send: (command, signal) => (port ??= make()).send(command, signal) };
}
