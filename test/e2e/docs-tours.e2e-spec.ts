import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { freePort } from '../support/ledger-process';
import { claimMismatch, outputsByClaim, shellBlocks, STEP_MARKER, tourOnPort } from '../support/markdown-tour';
import { ansibleUnavailable, describeWithService, openstackClientUnavailable } from '../support/services';

/**
 * The docs as a test: every shell example in the README and docs/ is either
 * run here — in a fresh copy of the working tree, on a free port set on the
 * tour's one `export PORT=` line (no command may name the default port), with a
 * real agent on the simulated driver, Debian's ansible-playbook and the real
 * `openstack` client — and every output it claims is checked, or it says
 * why it is not run (test/support/markdown-tour.ts has the rules).
 */
const ROOT = join(__dirname, '..', '..');
/** The README's tour installs a driver with Ansible and waits for jobs: minutes on a loaded machine, never more. */
const TOUR_TIMEOUT_MS = 8 * 60_000;
/** The longest a tour may go without reaching its next claim (the first start builds the tree). */
const CLAIM_TIMEOUT_MS = 3 * 60_000;

function documentationFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.md'], { cwd: ROOT, encoding: 'utf8' });
  return listed
    .split('\n')
    .filter((file) => file.endsWith('.md') && !file.startsWith('test/fixtures/'))
    .sort();
}

const tours = documentationFiles().filter((file) => shellBlocks(readFileSync(join(ROOT, file), 'utf8')).some((block) => block.mark === 'tour'));

describe('shell examples in the docs', () => {
  it('are each run by a tour or say why not', () => {
    const unmarked = documentationFiles().flatMap((file) =>
      shellBlocks(readFileSync(join(ROOT, file), 'utf8'))
        .filter((block) => block.mark === undefined)
        .map((block) => `${file}:${block.line}`),
    );
    expect(unmarked).toEqual([]);
  });

  it('include the README tour', () => {
    expect(tours).toContain('README.md');
  });

  it('name no port in a tour but on its `export PORT=` line, so changing that one line moves the whole tour', () => {
    const hardCoded = tours.flatMap((file) => tourOnPort(shellBlocks(readFileSync(join(ROOT, file), 'utf8')), 18666).hardCoded.map((line) => `${file}: ${line}`));
    expect(hardCoded).toEqual([]);
  });
});

/** A copy of the working tree as a fresh clone would have it (tracked and new files, nothing ignored), committed so a dirty tree shows. */
function freshCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), 'ledger-tour-'));
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    try {
      cpSync(join(ROOT, file), join(copy, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // deleted in the working tree, not yet in git
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=tour', '-c', 'user.email=tour@localhost', ...args], { cwd: copy, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'fresh copy');
  return copy;
}

interface TourRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

async function runScript(cwd: string, script: string, env: NodeJS.ProcessEnv): Promise<TourRun> {
  const file = join(cwd, '.tour.sh');
  writeFileSync(file, script);
  const child: ChildProcess = spawn('bash', ['-eo', 'pipefail', file], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let stalled = setTimeout(() => child.kill('SIGKILL'), CLAIM_TIMEOUT_MS);
  child.stdout?.on('data', (chunk) => {
    const before = stdout.split(STEP_MARKER).length;
    stdout += chunk;
    if (stdout.split(STEP_MARKER).length === before) return;
    clearTimeout(stalled);
    stalled = setTimeout(() => child.kill('SIGKILL'), CLAIM_TIMEOUT_MS);
  });
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), TOUR_TIMEOUT_MS);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  clearTimeout(stalled);
  try {
    process.kill(-child.pid!, 'SIGTERM'); // the ledger and agent the tour left in the background
  } catch {
    // the group is already gone
  }
  rmSync(file);
  return { code, stdout, stderr };
}

function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}

/** The ends of the logs the tour wrote (ledger.log, agent.log), to see why it stopped. */
function logTails(dir: string): string {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.log'))
    .map((file) => `--- ${file}:\n${tail(readFileSync(join(dir, file), 'utf8'), 20)}`)
    .join('\n');
}

const unavailable = openstackClientUnavailable() ?? ansibleUnavailable();

describeWithService('the openstack client and ansible-playbook', unavailable)('docs tours', () => {
  it.each(tours)('%s runs as written', async (file) => {
    const copy = freshCopy();
    const port = await freePort();
    try {
      const { script, claims, hardCoded } = tourOnPort(shellBlocks(readFileSync(join(ROOT, file), 'utf8')), port);
      expect({ commandsNamingTheDefaultPort: hardCoded }).toEqual({ commandsNamingTheDefaultPort: [] });
      // The agent keeps its state under XDG_STATE_HOME: a fresh one per run, outside the copy.
      const env = { ...process.env, PORT: undefined, XDG_STATE_HOME: join(copy, '..', `${basename(copy)}-state`), LEDGER_URL: undefined, HOST: undefined, CI: undefined, NODE_OPTIONS: undefined };
      // Every doc's commands are written as run from the top of the clone, whichever folder the doc is in.
      const run = await runScript(copy, script, env);
      const outputs = outputsByClaim(run.stdout);
      const where = (index: number) => `${file}:${claims[index].line}`;
      const failures = claims.flatMap((claim, index) => {
        if (index >= outputs.length) return [];
        const mismatch = claimMismatch(claim.text, outputs[index]);
        return mismatch ? [`${where(index)} claims "${claim.text}": ${mismatch}; it printed:\n${tail(outputs[index], 15)}`] : [];
      });
      if (run.code !== 0 || outputs.length < claims.length) {
        const stoppedAt = outputs.length < claims.length ? `before the claim at ${where(outputs.length)}` : 'after the last claim';
        const how = run.code === null ? `was stopped after ${CLAIM_TIMEOUT_MS / 1000} s without reaching a claim` : `exited with ${run.code}`;
        failures.push(`the tour ${how} ${stoppedAt}; its stderr ended:\n${tail(run.stderr)}\n${logTails(copy)}`);
      }
      expect(failures).toEqual([]);
      const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: copy, encoding: 'utf8' });
      expect({ leftInTheClone: dirty.split('\n').filter(Boolean) }).toEqual({ leftInTheClone: [] });
    } finally {
      rmSync(copy, { recursive: true, force: true });
      rmSync(`${copy}-state`, { recursive: true, force: true });
    }
  }, TOUR_TIMEOUT_MS + 60_000);
});
