/** Where the agent says what it does; main writes lines to stdout/stderr, specs collect them. */
export interface AgentLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Timestamped lines: log to stdout, warnings and errors to stderr. */
export const consoleLogger: AgentLogger = {
  log: (message) => process.stdout.write(`${new Date().toISOString()} agent ${message}\n`),
  warn: (message) => process.stderr.write(`${new Date().toISOString()} agent WARN ${message}\n`),
  error: (message) => process.stderr.write(`${new Date().toISOString()} agent ERROR ${message}\n`),
};
