import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type { EventStoreObserver } from '../../event-store-observer';

/** Runs `append` (one `append` or `appendMany` call) and tells `observer` how it ended and how long it took, from the caller's side. */
export async function observedAppend<Result>(observer: EventStoreObserver, append: () => Promise<Result>): Promise<Result> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const result = await append();
    observer.appendSettled('appended', seconds());
    return result;
  } catch (error) {
    observer.appendSettled(error instanceof WrongExpectedVersionError ? 'conflict' : 'failed', seconds());
    throw error;
  }
}
