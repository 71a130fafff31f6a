/** What the runtime logs through; Nest's `Logger` fits. */
export interface ProcessorLogger {
  /** What only matters when tracing a start or a failover (shown at LEDGER_LOG_LEVEL=debug). */
  debug(message: string): void;
  log(message: string): void;
  warn(message: string): void;
  error(message: string, stack?: string): void;
}

export const consoleProcessorLogger: ProcessorLogger = {
  debug: () => undefined,
  log: (message) => console.log(`[processing] ${message}`),
  warn: (message) => console.warn(`[processing] ${message}`),
  error: (message, stack) => console.error(`[processing] ${message}${stack ? `\n${stack}` : ''}`),
};
