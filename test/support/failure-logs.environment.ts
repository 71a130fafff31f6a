import NodeEnvironment from 'jest-environment-node';
import { KEPT_LOGS, type KeptLog } from './kept-logs';

/**
 * Jest's node environment, plus: when a test (or a hook) fails, it writes
 * to stderr what the ledgers and agents kept by test/support/kept-logs.ts
 * printed since the test began, so a failure comes with their logs and a
 * passing test prints nothing.
 */
export default class FailureLogsEnvironment extends NodeEnvironment {
  /** How much of each kept log was there when the current test began. */
  private readonly seen = new Map<KeptLog, number>();

  /** Jest calls this on each of its events (jest-circus); `test_done` carries the test's errors. */
  async handleTestEvent(event: { name: string; test?: { errors: unknown[] } }): Promise<void> {
    if (event.name === 'test_start') for (const log of this.keptLogs()) this.seen.set(log, log.text().length);
    const failed = (event.name === 'test_done' && (event.test?.errors.length ?? 0) > 0) || event.name === 'hook_failure';
    if (failed) process.stderr.write(this.printedSinceStart());
  }

  private keptLogs(): KeptLog[] {
    return (this.global as unknown as { [KEPT_LOGS]?: KeptLog[] })[KEPT_LOGS] ?? [];
  }

  private printedSinceStart(): string {
    return this.keptLogs()
      .map((log) => ({ log, printed: log.text().slice(this.seen.get(log) ?? 0) }))
      .filter(({ printed }) => printed.length > 0)
      .map(({ log, printed }) => `\n--- ${log.name}: what it printed during the failed test ---\n${printed}${printed.endsWith('\n') ? '' : '\n'}`)
      .join('');
  }
}
