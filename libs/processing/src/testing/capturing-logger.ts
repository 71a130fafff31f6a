import type { ProcessorLogger } from '../processors/processor-logger';

/** A logger that keeps messages for assertions instead of printing expected failures. */
export function capturingLogger(): ProcessorLogger & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    debug: (message) => lines.push(`debug: ${message}`),
    log: (message) => lines.push(`log: ${message}`),
    warn: (message) => lines.push(`warn: ${message}`),
    error: (message) => lines.push(`error: ${message}`),
  };
}
