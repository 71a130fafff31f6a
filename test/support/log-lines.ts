/** One line of the ledger's JSON log: the fields docs/operations.md ("Logs") lists, and whatever the line adds. */
export interface LogLine {
  readonly level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  readonly time: string;
  readonly msg: string;
  readonly context?: string;
  readonly requestId?: string;
  readonly correlationId?: string;
  readonly [field: string]: unknown;
}

/**
 * The lines of a ledger's output (`LEDGER_LOG_FORMAT=json`, what a process
 * whose stdout is not a terminal writes), each parsed; a line that is not
 * JSON fails the test with the line in the message.
 */
export function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });
}
