import type { Provider } from '@nestjs/common';
import { BindArqsHandler } from './bind-arqs.handler';
import { BindAtOnceDecision } from './bind-at-once';
import { BindWorkflowCommands } from './bind-workflow.commands';
import { CarveBindTogether } from './carve-bind-together';

/** The bind's Nest parts: the command's handler, the decision at once, the bind workflow's command handlers and a carving bind's decisions together. */
export const BIND_ARQS_PROVIDERS: Provider[] = [BindArqsHandler, BindAtOnceDecision, BindWorkflowCommands, CarveBindTogether];
