import type { DestinationStream } from 'pino';

/** A pino destination keeping each line, parsed, for a test to look at. */
export function logCapture(): DestinationStream & { readonly lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  return { lines, write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
}
