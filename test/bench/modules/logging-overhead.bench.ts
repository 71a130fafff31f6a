import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { startLedgerServer } from '../http/ledger-server';
import { promiseHookCostNs } from '../measure/promise-hook-cost';
import { prepareFlow64 } from '../fixtures/cyborg-v2-flow';

/**
 * The ledgers compared. `off`: LEDGER_LOG_LEVEL=error with no log context
 * ever entered (no-log-context.preload.ts), what the ledger cost before its
 * lines had ids; `log`: the default; `debug`: a line per request too;
 * `none`: `off` with LEDGER_METRICS=false as well, against which the
 * default (`log`, metrics on) gives observability_overhead_pct.
 */
const SETTINGS = ['off', 'log', 'debug', 'none'] as const;
type Setting = (typeof SETTINGS)[number];
/** Each setting runs this many times, the settings taking turns, so a slow spell of the machine falls on all of them. */
const ROUNDS = 3;
/** Flows of the sequential pass. */
const SEQUENTIAL_FLOWS = 500;
/** Flows whose promises are counted, after as many again to warm up. */
const COUNTED_FLOWS = 200;

interface Run {
  readonly flowsPerSecond: number;
  readonly cpuMsPerFlow: number;
  readonly sequentialCpuMsPerFlow: number;
}

/**
 * What JSON logging costs the ledger, against a ledger that logs nothing
 * but errors and enters no log context, in the same run: v2_flow_64
 * (cyborg-v2.bench.ts) on fresh ledger processes, then a sequential pass of
 * the same flow on one connection. The figures are the ledger's CPU per
 * flow, the lowest of each setting's runs: on this shared machine the
 * closed loop's rate moves by half from one run to the next with the other
 * work, the CPU per flow less (in the sequential pass no flows share a
 * commit, so it does not follow the rate). The rates are in the notes. What that cannot resolve is
 * counted directly: the promises a flow makes, times what Node's promise
 * hooks (which a log context turns on) add to each. docs/benchmarks.md,
 * "Logging".
 */
export const loggingOverheadBench: BenchModule = {
  records: [
    { name: 'logging_overhead_pct', unit: '%', digits: 1 },
    { name: 'logging_overhead_sequential_pct', unit: '%', digits: 1 },
    { name: 'logging_debug_overhead_pct', unit: '%', digits: 1 },
    { name: 'logging_context_ns_per_promise', unit: 'ns', digits: 1 },
    { name: 'logging_promises_per_flow', unit: 'promises' },
    { name: 'logging_context_overhead_pct', unit: '%', digits: 1 },
    { name: 'observability_overhead_pct', unit: '%', digits: 1 },
  ],
  async run(context, wanted) {
    if (context.target.name !== 'sqlite') {
      context.progress('logging_*: skipped; the ledger process is measured in its embedded setup, on the sqlite pass');
      return [];
    }
    const settings = SETTINGS.filter(
      (setting) => (setting !== 'debug' || wanted.has('logging_debug_overhead_pct')) && (setting !== 'none' || wanted.has('observability_overhead_pct')),
    );
    const runs = new Map<Setting, Run[]>(settings.map((setting) => [setting, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const setting of settings) runs.get(setting)!.push(await runAt(context, setting));
    }
    const off = runs.get('off')!;
    const lowest = (of: Run[], key: 'cpuMsPerFlow' | 'sequentialCpuMsPerFlow') => Math.min(...of.map((run) => run[key]));
    const overhead = (setting: Setting, name: string, key: 'cpuMsPerFlow' | 'sequentialCpuMsPerFlow', against = off): Measurement => {
      const on = runs.get(setting)!;
      const describe = (of: Run[]) => of.map((run) => `${run[key].toFixed(3)} ms${key === 'cpuMsPerFlow' ? ` (${run.flowsPerSecond.toFixed(0)}/s)` : ''}`).join(', ');
      return { name, value: (lowest(on, key) / lowest(against, key) - 1) * 100, notes: `ledger CPU per flow at ${setting}: ${describe(on)}; against: ${describe(against)}` };
    };
    // What the A/B cannot resolve on a loaded machine, counted directly: what the log context costs a flow.
    const counted = ['logging_context_ns_per_promise', 'logging_promises_per_flow', 'logging_context_overhead_pct'].some((name) => wanted.has(name));
    const hooks = counted ? promiseHookCostNs() : { withNs: Number.NaN, withoutNs: Number.NaN };
    const promisesPerFlow = counted ? await countPromisesPerFlow(context) : Number.NaN;
    const contextNsPerPromise = hooks.withNs - hooks.withoutNs;
    const contextMsPerFlow = (promisesPerFlow * contextNsPerPromise) / 1e6;
    return [
      overhead('log', 'logging_overhead_pct', 'cpuMsPerFlow'),
      overhead('log', 'logging_overhead_sequential_pct', 'sequentialCpuMsPerFlow'),
      ...(runs.has('debug') ? [overhead('debug', 'logging_debug_overhead_pct', 'cpuMsPerFlow')] : []),
      // Logging and metrics together, as operated by default, against neither.
      ...(runs.has('none') ? [overhead('log', 'observability_overhead_pct', 'cpuMsPerFlow', runs.get('none'))] : []),
      { name: 'logging_context_ns_per_promise', value: contextNsPerPromise, notes: `${hooks.withoutNs.toFixed(1)} ns per promise without promise hooks, ${hooks.withNs.toFixed(1)} with` },
      { name: 'logging_promises_per_flow', value: promisesPerFlow, notes: `counted over ${COUNTED_FLOWS} sequential v2_flow_64 flows` },
      {
        name: 'logging_context_overhead_pct',
        value: (contextMsPerFlow / lowest(off, 'cpuMsPerFlow')) * 100,
        notes: `${contextMsPerFlow.toFixed(3)} ms per flow against the lowest closed-loop CPU per flow with logging off, ${lowest(off, 'cpuMsPerFlow').toFixed(3)} ms`,
      },
    ].filter((measurement) => wanted.has(measurement.name));
  },
};

async function runAt(context: BenchContext, setting: Setting): Promise<Run> {
  const quiet = setting === 'off' || setting === 'none';
  const env = {
    LEDGER_LOG_LEVEL: quiet ? 'error' : setting,
    ...(setting === 'none' ? { LEDGER_METRICS: 'false' } : {}),
    LEDGER_LOG_FORMAT: 'json',
    // The hosts report once and send no heartbeat: they must not be recorded lost (3 × 15 s) before the sequential pass ends.
    LEDGER_AGENT_LOST_AFTER_INTERVALS: '100',
  };
  const ledger = await startLedgerServer(context.progress, env, { preload: quiet ? 'no-log-context' : undefined });
  try {
    context.progress(`logging: v2_flow_64 with logging ${quiet ? 'off' : `at ${setting}`}${setting === 'none' ? ' and metrics off' : ''}`);
    const flows = await prepareFlow64(context, ledger);
    const closedLoop = await flows.closedLoop();
    const sequentialCpuMsPerFlow = await flows.sequential(SEQUENTIAL_FLOWS);
    context.progress(`logging ${setting}: sequential flows ${sequentialCpuMsPerFlow.toFixed(3)} ms of ledger CPU each`);
    return { ...closedLoop, sequentialCpuMsPerFlow };
  } finally {
    await ledger.stop();
  }
}

/** Promises the ledger creates per flow (at the default level), sequential flows on a warm ledger. */
async function countPromisesPerFlow(context: BenchContext): Promise<number> {
  const directory = mkdtempSync(join(tmpdir(), 'ledger-bench-promises-'));
  const file = join(directory, 'count');
  const ledger = await startLedgerServer(context.progress, { LEDGER_BENCH_PROMISE_COUNT_FILE: file, LEDGER_AGENT_LOST_AFTER_INTERVALS: '100' }, { preload: 'promise-count' });
  // The preload writes the count every 50 ms: read it once it has caught up.
  const count = async () => {
    await delay(200);
    return Number(readFileSync(file, 'utf8'));
  };
  try {
    const flows = await prepareFlow64(context, ledger);
    await flows.sequential(COUNTED_FLOWS);
    const before = await count();
    await flows.sequential(COUNTED_FLOWS);
    const promises = ((await count()) - before) / COUNTED_FLOWS;
    context.progress(`logging: ${promises.toFixed(0)} promises per sequential flow`);
    return promises;
  } finally {
    await ledger.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}
