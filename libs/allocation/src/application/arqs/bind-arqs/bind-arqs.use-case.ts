import type { UseCase } from '@ledger/workflows';
import type { NovaEvents } from '../../nova/nova-events.port';
import { bindWorkflow } from './bind-workflow';
import { BindWorkflowCommands } from './bind-workflow.commands';
import { novaNotifierReactor, type NovaNotifierPorts } from './nova-notifier.reactor';

/** What the bind needs from the app beyond its command handlers: Nova (null when the ledger is not told where it is) and the read side the notifier waits on. */
export interface BindArqsOutside extends Omit<NovaNotifierPorts, 'nova'> {
  readonly nova: NovaEvents | null;
}

/**
 * Binding accelerator requests (docs/architecture.md, "Following a bind"):
 * the bind workflow for binds that program a region, its command handlers,
 * and the reactor that tells Nova how the binds ended. The HTTP route, the
 * command and its handler, and the decision at once are the folder's other
 * files.
 */
export const bindArqsUseCase: UseCase<BindArqsOutside> = {
  name: 'bind-arqs',
  workflows: [bindWorkflow],
  commands: (providers) => providers.get(BindWorkflowCommands).handlers(),
  // Without Nova, nothing is told: Nova polls `?instance=&bind_state=resolved` instead.
  reactors: ({ nova, ...ports }) => (nova ? [novaNotifierReactor({ ...ports, nova })] : []),
};
