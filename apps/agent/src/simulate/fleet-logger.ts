import type { AgentLogger } from '../runtime/agent-logger';

/** Warnings and errors printed per period at most; the rest are counted into one line. */
const LINES_PER_PERIOD = 5;

/**
 * The hosts' agent logs, made bearable for thousands of hosts: ordinary
 * lines are dropped (every host saying what it discovered would drown the
 * progress), warnings and errors go to `write` but only the first few per
 * period, then `flush` says how many were held back.
 */
export class FleetLogger implements AgentLogger {
  private printed = 0;
  private withheld = 0;

  constructor(private readonly write: (line: string) => void) {}

  log(_message: string): void {}

  warn(message: string): void {
    this.print(`WARN ${message}`);
  }

  error(message: string): void {
    this.print(`ERROR ${message}`);
  }

  /** Ends the period: one line for what was held back, if anything. */
  flush(): void {
    if (this.withheld > 0) this.write(`(${this.withheld} more warning(s) not shown)`);
    this.printed = 0;
    this.withheld = 0;
  }

  private print(line: string): void {
    if (this.printed >= LINES_PER_PERIOD) {
      this.withheld++;
      return;
    }
    this.printed++;
    this.write(line);
  }
}
