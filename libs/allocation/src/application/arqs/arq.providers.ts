import type { Provider } from '@nestjs/common';
import { ArqHolds } from './arq-holds';
import { arqStoreProvider } from './arq-store';
import { BindArqsHandler } from './bind-arqs/bind-arqs.handler';
import { BindAtOnceDecision } from './bind-arqs/bind-at-once';
import { BindWorkflowCommands } from './bind-arqs/bind-workflow.commands';
import { CreateArqsHandler } from './create-arqs/create-arqs.handler';
import { DeleteArqsHandler, DeleteInstanceArqsHandler } from './delete-arqs/delete-arqs.handlers';
import { UnbindArqsHandler } from './unbind-arqs/unbind-arqs.handler';

/** The accelerator-request command handlers, registered by AllocationModule (which also needs ALLOCATION_DIRECTORY from the app). */
export const ARQ_PROVIDERS: Provider[] = [
  arqStoreProvider,
  ArqHolds,
  CreateArqsHandler,
  BindArqsHandler,
  BindAtOnceDecision,
  UnbindArqsHandler,
  DeleteArqsHandler,
  DeleteInstanceArqsHandler,
  BindWorkflowCommands,
];
