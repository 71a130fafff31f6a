/**
 * Where discovery says what it skipped. One string argument, so the agent's
 * own logger (runtime/agent-logger.ts) fits as it is and specs can record.
 */
export interface DiscoveryLogger {
  warn(message: string): void;
}
