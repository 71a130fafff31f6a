/** What the runtime logs through; Nest's `Logger` fits. */
export interface ProcessorLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string, stack?: string): void;
}

export const consoleProcessorLogger: ProcessorLogger = {
  log: (message) => console.log(`[processing] ${message}`),
  warn: (message) => console.warn(`[processing] ${message}`),
  error: (message, stack) => console.error(`[processing] ${message}${stack ? `\n${stack}` : ''}`),
};
