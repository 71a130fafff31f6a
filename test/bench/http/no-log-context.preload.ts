/**
 * Loaded into the ledger process (`node -r`) that the logging benchmark
 * runs as its baseline: every AsyncLocalStorage.run just calls its
 * function, so no log context is entered and Node's promise hooks, which
 * the first run() turns on (Node 20), stay off. With LEDGER_LOG_LEVEL=error
 * the ledger then logs as little as it can, and pays nothing for the ids on
 * its lines: what logging costs is measured against this.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

AsyncLocalStorage.prototype.run = function run<R, A extends unknown[]>(_store: unknown, callback: (...args: A) => R, ...args: A): R {
  return callback(...args);
};
