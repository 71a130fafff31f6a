import type { Provider } from '@nestjs/common';
import { ArqHolds } from './arq-holds';
import { arqStoreProvider } from './arq-store';
import { BIND_ARQS_PROVIDERS } from './bind-arqs/bind-arqs.providers';
import { CreateArqsHandler } from './create-arqs/create-arqs.handler';
import { CreateArqsAtOnce } from './create-arqs/create-at-once';
import { DeleteArqsHandler, DeleteInstanceArqsHandler } from './delete-arqs/delete-arqs.handlers';
import { UnbindArqsHandler } from './unbind-arqs/unbind-arqs.handler';

/** The accelerator-request command handlers, registered by AllocationModule (which also needs ALLOCATION_DIRECTORY from the app). */
export const ARQ_PROVIDERS: Provider[] = [
  arqStoreProvider,
  ArqHolds,
  CreateArqsHandler,
  CreateArqsAtOnce,
  ...BIND_ARQS_PROVIDERS,
  UnbindArqsHandler,
  DeleteArqsHandler,
  DeleteInstanceArqsHandler,
];
