/**
 * What the ledgers and agents a test file starts print, kept rather than
 * written to Jest's output: a passing test prints nothing, and
 * test/support/failure-logs.environment.ts shows what they printed during
 * a test that failed.
 */
export interface KeptLog {
  readonly name: string;
  /** Takes a chunk of the output (a pino destination, a child's stdout or stderr). */
  write(chunk: string | Buffer): void;
  /** Everything it took so far. */
  text(): string;
}

/** Where the kept logs of this test file are listed: the test environment reads it from the same global. */
export const KEPT_LOGS = Symbol.for('ledger.test.keptLogs');

/** Keeps the output of `name` (a ledger, an agent) for the test environment to show if a test fails. */
export function keepLog(name: string): KeptLog {
  let text = '';
  const log: KeptLog = {
    name,
    write: (chunk) => {
      text += chunk.toString();
    },
    text: () => text,
  };
  const globals = globalThis as { [KEPT_LOGS]?: KeptLog[] };
  (globals[KEPT_LOGS] ??= []).push(log);
  return log;
}
