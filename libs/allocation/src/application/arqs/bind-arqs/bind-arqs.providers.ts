import type { Provider } from '@nestjs/common';
import { BindArqsHandler } from './bind-arqs.handler';
import { BindAtOnceDecision } from './bind-at-once';
import { BindWorkflowCommands } from './bind-workflow.commands';

/** The bind's Nest parts: the command's handler, the decision at once, and the bind workflow's command handlers. */
export const BIND_ARQS_PROVIDERS: Provider[] = [BindArqsHandler, BindAtOnceDecision, BindWorkflowCommands];
