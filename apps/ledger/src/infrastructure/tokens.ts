/** Nest injection tokens of the ledger app's composition root. */
export const LEDGER_CONFIG = Symbol('LEDGER_CONFIG');
export const READ_MODEL_DB = Symbol('READ_MODEL_DB');
export const PROCESSOR_RUNTIME = Symbol('PROCESSOR_RUNTIME');
export const REACTOR_RUNTIME = Symbol('REACTOR_RUNTIME');
export const WORKFLOW_RUNTIME = Symbol('WORKFLOW_RUNTIME');
/** The log's newest events, read once per append for the process's projections, reactors and workflows (a SharedLogTail). */
export const LOG_TAIL = Symbol('LOG_TAIL');
/** The app's LedgerMetrics, present while LEDGER_METRICS is on. */
export const LEDGER_METRICS = Symbol('LEDGER_METRICS');
/** LEDGER_METRICS for a factory's `inject`: absent while metrics are off. */
export const OPTIONAL_METRICS = { token: LEDGER_METRICS, optional: true };
