import { isLedgerError } from '@ledger/kernel';
import type { PortAnswer } from './workflow-ports';

/**
 * Runs one side of a port and turns its refusal into an answer: a
 * LedgerError below 500 (a quota exceeded, a device in maintenance, no
 * agent) is `rejected` with its code, for the workflow to decide on;
 * anything else throws, and the runtime sends again with backoff.
 */
export async function answerOf(send: () => Promise<unknown>): Promise<PortAnswer> {
  try {
    const reply = await send();
    return reply === undefined ? { outcome: 'accepted' } : { outcome: 'accepted', reply };
  } catch (error) {
    if (isLedgerError(error) && error.status < 500) return { outcome: 'rejected', error: { code: error.code, message: error.message } };
    throw error;
  }
}
