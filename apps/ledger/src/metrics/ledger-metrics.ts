import type { AppendOutcome, EventStoreObserver } from '@ledger/eventstore';
import type { ProcessorObserver } from '@ledger/processing';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** From a fast read to a bind that waits for its workflow (LEDGER_BIND_TIMEOUT_MS, 60 s) and the agents' long polls. */
const REQUEST_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** An append waits for its group commit: one fsync (SQLite) or round trip (PostgreSQL), plus the queue before it. */
const APPEND_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Up to the stores' per-commit bounds (1000 appends on SQLite, 500 on PostgreSQL). */
const COMMIT_APPENDS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000];

/**
 * The ledger's event-driven metrics: counted where things happen (HTTP
 * responses, appends, group commits, processor batches), in this app's own
 * registry. One ledger runs per process in a deployment, so this is the
 * process's registry; an own one rather than prom-client's global lets
 * tests run several ledgers in one process. What is read at scrape time
 * (lags, counts from the read models) is in ScrapeGauges.
 */
export class LedgerMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'ledger_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'ledger_http_request_duration_seconds',
    help: 'Time from request to response sent, by method, route template and status class (2xx, 4xx, 5xx)',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: REQUEST_SECONDS,
    registers: [this.registry],
  });
  private readonly reports = new Counter({
    name: 'ledger_agent_reports_total',
    help: "Agents' host reports by the way they were answered: shortcut (byte-identical to the last unchanged one, host unchanged since) or full (validated and diffed)",
    labelNames: ['path'] as const,
    registers: [this.registry],
  });
  private readonly appendSeconds = new Histogram({
    name: 'ledger_eventstore_append_duration_seconds',
    help: "An append as its caller waits for it (queue, group commit, result), by outcome: appended, conflict (expected version), failed",
    labelNames: ['outcome'] as const,
    buckets: APPEND_SECONDS,
    registers: [this.registry],
  });
  private readonly commitAppends = new Histogram({
    name: 'ledger_eventstore_commit_appends',
    help: 'Appends carried by one group commit (one transaction or round trip)',
    buckets: COMMIT_APPENDS,
    registers: [this.registry],
  });
  private readonly commitSeconds = new Histogram({
    name: 'ledger_eventstore_commit_duration_seconds',
    help: 'One group commit: the transaction (SQLite) or the ledger_append call (PostgreSQL)',
    buckets: APPEND_SECONDS,
    registers: [this.registry],
  });
  private readonly batches = new Counter({
    name: 'ledger_processor_batches_total',
    help: 'Batches a processor (projection, reactor:…, workflow:…) processed and checkpointed in this process',
    labelNames: ['processor'] as const,
    registers: [this.registry],
  });
  private readonly batchEvents = new Counter({
    name: 'ledger_processor_events_total',
    help: 'Events in those batches (the ones its filter reads)',
    labelNames: ['processor'] as const,
    registers: [this.registry],
  });
  private readonly failures = new Counter({
    name: 'ledger_processor_failures_total',
    help: 'Failed attempts of a processor, each retried (a reactor also counts the outside refusing or being down)',
    labelNames: ['processor'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** `route` is the route's template (`/api/v1/hosts/:hostname`), never the URL: one series per route, not per host. */
  requestAnswered(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.requestSeconds.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
  }

  reportAnswered(path: 'shortcut' | 'full'): void {
    this.reports.inc({ path });
  }

  readonly eventStore: EventStoreObserver = {
    appendSettled: (outcome: AppendOutcome, seconds: number) => this.appendSeconds.observe({ outcome }, seconds),
    commitFinished: (appends: number, seconds: number) => {
      this.commitAppends.observe(appends);
      this.commitSeconds.observe(seconds);
    },
  };

  readonly processors: ProcessorObserver = {
    batchProcessed: (processor: string, events: number) => {
      this.batches.inc({ processor });
      this.batchEvents.inc({ processor }, events);
    },
    attemptFailed: (processor: string) => this.failures.inc({ processor }),
  };
}
