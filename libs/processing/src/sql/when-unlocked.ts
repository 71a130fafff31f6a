/**
 * Runs `attempt` (one statement that takes SQLite's write lock, before any
 * change is made) and retries it while another connection holds the lock,
 * for up to `timeoutMs`. Waiting here instead of in SQLite's busy handler
 * keeps the event loop free, which also lets another connection of this very
 * process (a second database object on the file) finish the transaction
 * that holds the lock.
 */
export async function whenUnlocked<T>(timeoutMs: number, attempt: () => T): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let waitMs = 1; ; waitMs = Math.min(waitMs * 2, 50)) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

const isBusy = (error: unknown): boolean => String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY');
