/**
 * Loaded into the ledger process (`node -r`) by the logging benchmark:
 * counts the promises the process creates, and writes the count to
 * LEDGER_BENCH_PROMISE_COUNT_FILE every 50 ms, so the benchmark can count
 * the promises of a known number of flows. The hook counts only; it turns
 * on the promise hooks a log context turns on too.
 */
import { createHook } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';

const file = process.env.LEDGER_BENCH_PROMISE_COUNT_FILE;
if (file) {
  let promises = 0;
  createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises++;
    },
  }).enable();
  setInterval(() => writeFileSync(file, String(promises)), 50).unref();
}
