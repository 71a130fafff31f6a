import { InMemoryEventStore } from '@ledger/processing/testing';
import { InMemoryNovaEvents } from '../../../testing/in-memory-nova-events';
import { type BindArqsOutside, bindArqsUseCase } from './bind-arqs.use-case';
import { BIND_WORKFLOW } from './bind-workflow';
import { BindWorkflowCommands } from './bind-workflow.commands';

const outside = (nova: BindArqsOutside['nova']): BindArqsOutside => ({
  nova,
  store: new InMemoryEventStore(),
  projectionsReached: async () => undefined,
  arqsOfInstance: async () => [],
});

describe('the bind use case, as the app lists it', () => {
  it("runs the bind workflow, its commands served by the conductor's BindWorkflowCommands", () => {
    expect(bindArqsUseCase.workflows.map((workflow) => workflow.name)).toEqual([BIND_WORKFLOW]);
    const handlers = { 'allocation.StartBind': async () => undefined };
    const asked: unknown[] = [];
    const providers = { get: <T>(type: abstract new (...args: never[]) => T): T => (asked.push(type), { handlers: () => handlers } as T) };
    expect(bindArqsUseCase.commands(providers)).toBe(handlers);
    expect(asked).toEqual([BindWorkflowCommands]);
  });

  it('tells Nova how binds ended when Nova is configured, and runs no reactor when it is not', () => {
    expect(bindArqsUseCase.reactors(outside(new InMemoryNovaEvents()))).toEqual([
      expect.objectContaining({ name: 'nova-notifier', handles: ['allocation.ArqBound', 'allocation.ArqBindFailed'] }),
    ]);
    expect(bindArqsUseCase.reactors(outside(null))).toEqual([]);
  });
});
