import { setTimeout as delay } from 'node:timers/promises';

const POLL_MS = 500;

/**
 * Resolves once the ledger answers `/healthz`, so `npm start & npm run
 * simulate` works while the ledger is still starting; false when it has
 * not answered within `timeoutMs` (or `stop` aborted the wait).
 */
export async function waitForLedger(ledgerUrl: string, timeoutMs: number, onWaiting: () => void, stop?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let told = false;
  while (!stop?.aborted) {
    const up = await fetch(`${ledgerUrl}/healthz`, { signal: AbortSignal.timeout(5000) }).then(
      (reply) => reply.ok,
      () => false,
    );
    if (up) return true;
    if (Date.now() >= deadline) return false;
    if (!told) onWaiting();
    told = true;
    await delay(POLL_MS, undefined, { signal: stop }).catch(() => undefined);
  }
  return false;
}
