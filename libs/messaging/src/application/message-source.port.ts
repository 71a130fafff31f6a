import type { ReceivedMessage } from './received-message';

/**
 * A consumer's side of the broker: hands each batch of one partition to
 * `handle` in offset order, and commits the offsets only once `handle`
 * resolved (at least once: a restart may hand a batch again).
 */
export interface MessageSource {
  start(handle: (messages: readonly ReceivedMessage[]) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}
