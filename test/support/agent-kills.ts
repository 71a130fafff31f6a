import { setTimeout as delay } from 'node:timers/promises';
import { eventually } from '@ledger/processing/testing';
import type { AgentProcess } from './agent-process';

/**
 * When a crash suite kills an agent: once it has started `afterStarts` more
 * jobs of `kind` than it had when asked, then `extraMs` later still, so the
 * kill lands at different points of a job (before its change, between the
 * change and its answer, after).
 */
export interface AgentKillMoment {
  readonly kind: string;
  readonly afterStarts: number;
  readonly extraMs: number;
}

/** What the agent was doing when it died: jobs of the moment's kind it had started and not finished. */
export interface AgentKill {
  readonly unanswered: readonly string[];
}

const started = (output: string, kind: string): string[] => [...output.matchAll(new RegExp(`job (\\S+): ${kind} started`, 'g'))].map((match) => match[1]);
const finished = (output: string, kind: string): Set<string> => new Set([...output.matchAll(new RegExp(`job (\\S+): ${kind} (?:completed|failed)`, 'g'))].map((match) => match[1]));

/**
 * SIGKILLs `agent` at `moment`, or at once when `stopped()` says the work
 * it waits for will not come (the cycle's clients ended first): the kill
 * follows the agent's own log, never the clock.
 */
export async function killAgentAt(agent: AgentProcess, moment: AgentKillMoment, stopped: () => boolean): Promise<AgentKill> {
  const from = agent.output().length;
  const reached = () => started(agent.output().slice(from), moment.kind).length >= moment.afterStarts;
  // The safety net of a wait that `stopped()` ends; never reached while the suite runs.
  await eventually(async () => stopped() || reached(), 600_000);
  if (reached()) await delay(moment.extraMs);
  const output = agent.output();
  const done = finished(output, moment.kind);
  await agent.stop('SIGKILL');
  return { unanswered: started(output, moment.kind).filter((jobId) => !done.has(jobId)) };
}
