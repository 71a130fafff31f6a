import type { JobOffer } from '../dispatch-job/job-offer';

/**
 * Nest token of the agents' long polls that wait in this process (the app
 * provides it where it serves them). A job requested while its host's agent
 * waits is recorded dispatched to that poll in the same append as its
 * request, and the poll answers with it: no second append, and no wake-up
 * of the poll to dispatch it (docs/agent-protocol.md, "A job handed to a
 * waiting poll"). Without one, every job waits for a poll to take it.
 */
export const WAITING_POLLS = Symbol('WAITING_POLLS');

export interface WaitingPolls {
  /** Sets aside a poll of `hostname`'s agent that is waiting now, if any: it neither answers nor times out until handed a job or released. */
  take(hostname: string): WaitingPoll | undefined;
}

/** A poll set aside for one job request. Exactly one of `hand` or `release` is called. */
export interface WaitingPoll {
  /** The boot the agent polls from: the job is recorded dispatched to it. */
  readonly agentBoot: string | null;
  /** The job is recorded dispatched to this poll: it answers with the offer. */
  hand(offer: JobOffer): void;
  /** Nothing was handed (the request was refused, or asked again for a job that exists): the poll waits on. */
  release(): void;
}
