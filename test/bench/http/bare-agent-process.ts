import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { processCpuSeconds } from './process-cpu';

/** The bare server of bare-agent-server.ts, running: what a steady window reads of a ledger (its URL, its CPU). */
export interface BareAgentServer {
  readonly url: URL;
  readonly pid: number;
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** Forks the compiled bare-agent-server.js beside this file and resolves once it listens. */
export async function startBareAgentServer(): Promise<BareAgentServer> {
  const child = fork(join(__dirname, 'bare-agent-server.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const [message] = (await Promise.race([once(child, 'message'), once(child, 'exit').then(() => Promise.reject(new Error('the bare agent server exited before listening')))])) as [{ port: number }];
  const pid = child.pid ?? 0;
  return {
    url: new URL(`http://127.0.0.1:${message.port}`),
    pid,
    cpuSeconds: () => processCpuSeconds(pid),
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
