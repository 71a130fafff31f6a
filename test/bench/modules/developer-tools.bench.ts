import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../../support/ledger-process';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { scratchTree } from '../fixtures/scratch-tree';
import { repositoryRoot, startLedgerServer } from '../http/ledger-server';
import { percentile } from '../measure/statistics';

const TOKEN_ISSUE = ['token', 'issue', '--user', 'u', '--project', 'p', '--role', 'member'];
/** A read through a running ledger's API, the kind of call an operator makes all day. */
const SERVICE_LIST = ['service-list'];
const START_TIMEOUT_MS = 120_000;

/** The build's stamp check (scripts/build/build-stamp.js, plain JavaScript). */
interface BuildStamp {
  staleness(root: string, dist: string): string | null;
}

/**
 * A new user's first hour: what a `ledgerctl` call against a running ledger
 * costs, run directly and through npm, with the tree built, what the build costs from clean and after one edit, and
 * how long the first `npm start` takes from a clean dist/ to its
 * "listening" line. Wall times of real processes, as a user runs them; the
 * builds and the start run in a scratch copy of the sources, so the running
 * bench's own dist/ is never touched. Not a store benchmark: it runs on the
 * sqlite pass (the embedded setup, whose data directory holds the signing key).
 */
export const developerToolsBench: BenchModule = {
  records: [
    { name: 'node_start_ms', unit: 'ms', min: 0 },
    { name: 'ledgerctl_call_ms', unit: 'ms', min: 0 },
    { name: 'ledgerctl_npm_call_ms', unit: 'ms', min: 0 },
    { name: 'ledgerctl_help_ms', unit: 'ms', min: 0 },
    { name: 'ledgerctl_token_ms', unit: 'ms', min: 0 },
    { name: 'build_check_ms', unit: 'ms', min: 0 },
    { name: 'build_clean_s', unit: 's', digits: 2, min: 0 },
    { name: 'build_incremental_s', unit: 's', digits: 2, min: 0 },
    { name: 'start_clean_s', unit: 's', digits: 1, min: 0 },
  ],
  async run(context, wanted) {
    if (context.target.name !== 'sqlite') {
      context.progress('developer tools: skipped; measured once, on the sqlite pass');
      return [];
    }
    const repository = repositoryRoot();
    const calls: Record<string, readonly string[]> = {
      node_start_ms: [process.execPath, '-e', '0'],
      ledgerctl_call_ms: [process.execPath, 'scripts/run.js', 'ledgerctl', ...SERVICE_LIST],
      ledgerctl_npm_call_ms: ['npm', 'run', 'ledgerctl', '--', ...SERVICE_LIST],
      ledgerctl_help_ms: ['npm', 'run', 'ledgerctl', '--', '--help'],
      ledgerctl_token_ms: [process.execPath, 'scripts/run.js', '--build', 'ledgerctl', ...TOKEN_ISSUE],
    };
    const results: Measurement[] = [];
    const wantedCalls = Object.keys(calls).filter((name) => wanted.has(name));
    if (wantedCalls.length > 0) {
      const ledger = await startLedgerServer(context.progress);
      // The child npm must behave as when a user types the command, not inherit this run's npm lifecycle settings.
      const env = { ...withoutNpmVariables(process.env), LEDGER_DATA_DIR: ledger.dataDir, LEDGER_URL: ledger.url.origin };
      try {
        for (const name of wantedCalls) results.push(callLatency(context, name, calls[name], repository, env));
      } finally {
        await ledger.stop();
      }
    }
    if (wanted.has('build_check_ms')) results.push(checkLatency(context, repository));
    const builds = ['build_clean_s', 'build_incremental_s', 'start_clean_s'].filter((name) => wanted.has(name));
    if (builds.length > 0) {
      const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-cli-'));
      try {
        results.push(...(await measureBuilds(context, new Set(builds), repository, { ...withoutNpmVariables(process.env), LEDGER_DATA_DIR: dataDir })));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return results;
  },
};

/** p50 wall time of a command run one call after another (one untimed call first); every call must exit 0. */
function callLatency(context: BenchContext, name: string, [file, ...args]: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Measurement {
  const call = () => {
    const started = performance.now();
    const result = spawnSync(file, args, { cwd, env, encoding: 'utf8' });
    const ms = performance.now() - started;
    if (result.status !== 0) throw new Error(`${name}: ${[file, ...args].join(' ')} exited with ${result.status}: ${result.stderr}`);
    if (args.includes('issue') && !/^[\w-]+\.[\w-]+\.[\w-]+\n$/.test(result.stdout)) throw new Error(`${name}: expected a token alone on stdout, got ${JSON.stringify(result.stdout)}`);
    if (args.includes('service-list') && result.stdout !== 'no hosts have reported yet\n') throw new Error(`${name}: expected the empty service list alone on stdout, got ${JSON.stringify(result.stdout)}`);
    return ms;
  };
  call();
  const samples = Array.from({ length: context.sizes.toolSamples }, call);
  return latency(context, name, samples, `${[file === process.execPath ? 'node' : file, ...args].join(' ')}`);
}

/** p50 of the build's stamp check, in process (no Node start-up), on the built tree. */
function checkLatency(context: BenchContext, repository: string): Measurement {
  const { staleness } = require(join(repository, 'scripts', 'build', 'build-stamp.js')) as BuildStamp;
  const check = () => {
    const started = performance.now();
    const reason = staleness(repository, join(repository, 'dist'));
    const ms = performance.now() - started;
    if (reason !== null) throw new Error(`build_check_ms: dist/ is not up to date (${reason}); the check would stop early`);
    return ms;
  };
  check();
  return latency(context, 'build_check_ms', Array.from({ length: context.sizes.toolSamples * 5 }, check), 'staleness(root, dist)');
}

function latency(context: BenchContext, name: string, samples: readonly number[], what: string): Measurement {
  const [p50, p90, min] = [percentile(samples, 50), percentile(samples, 90), Math.min(...samples)];
  const notes = `${what}: p50 ${p50.toFixed(0)} ms, p90 ${p90.toFixed(0)}, min ${min.toFixed(0)} over ${samples.length} calls; load ${loadavg()[0].toFixed(1)}`;
  context.progress(`${name}: ${notes}`);
  return { name, value: p50, notes };
}

/** The builds and the first start, each the best of `rounds` runs in a scratch copy of the sources. */
async function measureBuilds(context: BenchContext, wanted: ReadonlySet<string>, repository: string, env: NodeJS.ProcessEnv): Promise<Measurement[]> {
  const tree = scratchTree(repository);
  const dist = join(tree.root, 'dist');
  const build = (...args: string[]) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, ['scripts/build.js', ...args], { cwd: tree.root, env, encoding: 'utf8' });
    const seconds = (performance.now() - started) / 1000;
    if (result.status !== 0) throw new Error(`build ${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
    return { seconds, line: result.stderr.trim() };
  };
  const runs: Record<string, () => Promise<{ seconds: number; line: string }>> = {
    build_clean_s: async () => {
      rmSync(dist, { recursive: true, force: true });
      return build();
    },
    build_incremental_s: async () => {
      appendFileSync(join(tree.root, 'libs', 'kernel', 'src', 'index.ts'), '\n');
      return build();
    },
    start_clean_s: async () => {
      rmSync(dist, { recursive: true, force: true });
      return firstStart(tree.root, env);
    },
  };
  const results: Measurement[] = [];
  try {
    build();
    for (const name of wanted) {
      const tries: Array<{ seconds: number; line: string }> = [];
      for (let round = 0; round < context.sizes.rounds; round++) tries.push(await runs[name]());
      const best = tries.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const notes = `best of ${tries.map((t) => t.seconds.toFixed(2)).join(', ')} s; ${best.line}; load ${loadavg()[0].toFixed(1)}`;
      context.progress(`${name}: ${notes}`);
      results.push({ name, value: best.seconds, notes });
    }
  } finally {
    tree.remove();
  }
  return results;
}

/** `npm start` in `root` with dist/ removed: seconds until the ledger logs "listening", then stopped. */
async function firstStart(root: string, env: NodeJS.ProcessEnv): Promise<{ seconds: number; line: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-start-'));
  const port = await freePort();
  const started = performance.now();
  // Its own process group, so npm, its shell and the ledger stop together.
  const child = spawn('npm', ['start'], { cwd: root, env: { ...env, PORT: String(port), HOST: '127.0.0.1', LEDGER_DATA_DIR: dataDir }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const seconds = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not log "listening" within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
      const watch = (chunk: Buffer) => {
        output += chunk.toString();
        if (/listening on http/.test(output)) {
          clearTimeout(timer);
          resolve((performance.now() - started) / 1000);
        }
      };
      child.stdout.on('data', watch);
      child.stderr.on('data', watch);
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code} before "listening":\n${output}`)));
    });
    return { seconds, line: /build: .*/.exec(output)?.[0] ?? 'no build line' };
  } finally {
    await stopGroup(child.pid as number, child.exitCode === null && child.signalCode === null ? once(child, 'exit') : Promise.resolve());
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** SIGTERM to the process group, then waits until npm has exited and no process of the group (the ledger) is left. */
async function stopGroup(group: number, npmExited: Promise<unknown>): Promise<void> {
  const alive = () => {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-group, 'SIGTERM');
  await npmExited;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (alive()) {
    if (Date.now() > deadline) process.kill(-group, 'SIGKILL');
    await delay(50);
  }
}

function withoutNpmVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
}
