const QUIET_START_MS = 1000;

/**
 * Progress of a long run on stderr, so stdout stays clean for data: a
 * redrawn line on a terminal, a line every few seconds otherwise (CI logs).
 * A run that ends within its first second shows nothing: a bar that flashes
 * once only adds noise to a quick answer.
 */
export class Progress {
  private readonly started = Date.now();
  private lastDraw = 0;
  private lastDrawn = -1;
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(
    private readonly label: string,
    private readonly total?: number,
    private readonly quiet = false,
  ) {}

  update(done: number, force = false): void {
    if (this.quiet) return;
    const now = Date.now();
    if (now - this.started < QUIET_START_MS) return;
    if (!force && now - this.lastDraw < (this.tty ? 200 : 5000)) return;
    if (done === this.lastDrawn) return;
    this.lastDraw = now;
    this.lastDrawn = done;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(done / seconds) : 0;
    const of = this.total ? ` of ${this.total} (${Math.floor((done / this.total) * 100)}%)` : '';
    const line = `${this.label}: ${done}${of} events, ${rate}/s`;
    process.stderr.write(this.tty ? `\r${line}\x1b[K` : `${line}\n`);
  }

  done(done: number): void {
    this.update(done, true);
    if (!this.quiet && this.tty && this.lastDrawn !== -1) process.stderr.write('\n');
  }
}
