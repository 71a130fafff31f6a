import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface LedgerctlRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The compiled CLI (npm test builds first), asynchronously: a ledger or an
 * agent answering it may run in this process. LEDGER_URL and LEDGER_TOKEN
 * come from `env` only, never from the caller's environment.
 */
export function ledgerctl(env: Record<string, string>, ...args: string[]): Promise<LedgerctlRun> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'run.js'), 'ledgerctl', ...args], {
    cwd: ROOT,
    env: { ...process.env, LEDGER_URL: '', LEDGER_TOKEN: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
