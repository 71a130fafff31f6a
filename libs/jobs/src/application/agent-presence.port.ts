import type { AgentPresence } from '../domain/job.commands';

/**
 * Nest token of "what has the ledger heard from this host's agent?", which
 * a job request is decided on (JOB.AGENT_UNAVAILABLE). The app provides it,
 * globally, from the agents' live view; where none is provided (a process
 * without the api role takes no job requests), jobs are recorded unchecked.
 */
export const AGENT_PRESENCE = Symbol('AGENT_PRESENCE');

/** Undefined when the host is not in the live view at all. */
export type AgentPresenceLookup = (hostname: string) => Promise<AgentPresence | undefined>;
