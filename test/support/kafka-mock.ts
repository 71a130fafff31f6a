import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** librdkafka's mock cluster prints this once it listens: "… replaced with 127.0.0.1:PORT[,…]". */
const BOOTSTRAP_LINE = /replaced with (\S+)/;
const START_TIMEOUT_MS = 10_000;

/** A Kafka protocol broker for one suite: librdkafka's mock cluster, kept alive by a `kcat` producer (DESIGN.md, services). */
export interface KafkaMock {
  readonly brokers: string[];
  /**
   * Stops the broker answering (SIGSTOP), resolving once the process is
   * stopped: its connections stay open and what is sent to it goes
   * unanswered, as with a hung broker.
   */
  freeze(): Promise<void>;
  /** Lets a frozen broker go on (SIGCONT): it then reads and answers what it was sent meanwhile. */
  thaw(): void;
  stop(): Promise<void>;
}

/** Why the mock cluster cannot be started here (no `kcat`), or undefined when it can; checked synchronously, for `describeWithService`. */
export function kafkaMockUnavailable(): string | undefined {
  const probe = spawnSync('kcat', ['-V'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.error || probe.status !== 0) return `kcat is not installed (${probe.error?.message ?? probe.stderr.trim()}); install Debian's kcat: apt-get install -y kcat`;
  return undefined;
}

/**
 * Starts the mock cluster on a free port (librdkafka picks it and prints it)
 * and resolves with its bootstrap list. Topics are created on first use,
 * with 4 partitions. The cluster lives as long as kcat's stdin stays open.
 */
export async function startKafkaMock(): Promise<KafkaMock> {
  const kcat = spawn('kcat', ['-P', '-b', '127.0.0.1:1', '-t', 'keepalive', '-X', 'test.mock.num.brokers=1'], { stdio: ['pipe', 'ignore', 'pipe'] });
  const brokers = await new Promise<string[]>((resolve, reject) => {
    let printed = '';
    const timer = setTimeout(() => reject(new Error(`kcat printed no bootstrap list within ${START_TIMEOUT_MS} ms:\n${printed}`)), START_TIMEOUT_MS);
    kcat.stderr.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const match = BOOTSTRAP_LINE.exec(printed);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1].split(','));
    });
    kcat.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kcat exited with ${code} before the mock cluster was up:\n${printed}`));
    });
  });
  return {
    brokers,
    freeze: async () => {
      kcat.kill('SIGSTOP');
      // A signal lands asynchronously: stopped once /proc says so. (This file is compiled for the benchmarks too, which cannot load testing helpers.)
      for (const deadline = Date.now() + START_TIMEOUT_MS; processState(kcat.pid!) !== 'T'; await delay(10)) {
        if (Date.now() > deadline) throw new Error(`the mock broker (pid ${kcat.pid}) did not stop within ${START_TIMEOUT_MS} ms`);
      }
    },
    thaw: () => kcat.kill('SIGCONT'),
    stop: () => stopKcat(kcat),
  };
}

/** The state letter of /proc/PID/stat (`T`: stopped by a signal), after the command name, which may hold spaces and parentheses. */
function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

async function stopKcat(kcat: ChildProcess): Promise<void> {
  if (kcat.exitCode !== null || kcat.signalCode !== null) return;
  const exited = new Promise((resolve) => kcat.once('exit', resolve));
  // The mock cluster keeps nothing worth a graceful stop, and kcat would try to flush to it.
  kcat.kill('SIGKILL');
  await exited;
}
