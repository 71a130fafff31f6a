import type { Reactor } from '@ledger/processing';
import type { Workflow } from '../domain/workflow';
import type { WorkflowCommandHandlers } from './registry-command-port';

/** Finds a provider the conductor made, by its class (Nest's ModuleRef, non-strict, is one). */
export interface ProviderLookup {
  get<T>(type: abstract new (...args: never[]) => T): T;
}

/**
 * One use case as the app lists it (STYLE.md, "A use case in one folder"):
 * what it runs beyond its command handlers. The app merely lists use cases;
 * it gives each its outside (the event store, Nova, … as configured) and
 * assembles nothing of their insides.
 */
export interface UseCase<Outside = unknown> {
  /** The use case's folder name (`bind-arqs`), for logs and errors. */
  readonly name: string;
  /** Each with its own state type (hence `any`), as WorkflowRuntime takes them. */
  readonly workflows: readonly Workflow<any>[];
  /** The handlers of the commands its workflows send, from the conductor's providers (none when it has no workflow). */
  readonly commands: (providers: ProviderLookup) => WorkflowCommandHandlers;
  /** The reactors it owns, made from what the app gives it: none when their outside is not configured. */
  readonly reactors: (outside: Outside) => readonly Reactor[];
}
