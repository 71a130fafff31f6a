import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenEventStoreOptions } from '../open-event-store';

const ROOT = join(__dirname, '..', '..', '..', '..');
const SCRIPT = 'test/support/append-burst.js';

/**
 * Starts test/support/append-burst (compiled) against `options`, lets it
 * acknowledge at least `acknowledged` events, SIGKILLs it mid-burst and
 * returns every id it acknowledged. Needs `npm run build` (npm test does it).
 */
export async function appendBurstUntilKilled(options: OpenEventStoreOptions, acknowledged: number): Promise<string[]> {
  if (!existsSync(join(ROOT, 'dist', SCRIPT))) {
    throw new Error(`dist/${SCRIPT} is missing: run "npm run build" before this test`);
  }
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'run.js'), SCRIPT, JSON.stringify(options)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ids: string[] = [];
  let partial = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    ids.push(...lines);
    if (ids.length >= acknowledged) child.kill('SIGKILL');
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  if (signal !== 'SIGKILL') {
    throw new Error(`append-burst exited on its own (code ${code}): ${stderr}`);
  }
  return ids;
}
