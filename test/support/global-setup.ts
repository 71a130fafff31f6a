import { execFile } from 'node:child_process';
import { Client } from 'pg';
import { chromiumPath } from './chromium-path';
import { openstackClientProblem } from './openstack-cli';
import { placementMissing, type PlacementService, startPlacementService } from './placement-service';
import { selectsPlacementSuites } from './placement-suites';

/** The Placement this run started, for test/support/global-teardown.ts (same process). */
export const PLACEMENT_HANDLE = Symbol.for('ledger.test.placement');

/**
 * Once per Jest run: compiles what changed into dist/ (e2e suites start
 * compiled processes, so they never run a stale build), probes the real
 * services and starts the one Placement the run shares; suites read the
 * verdicts from the environment.
 */
export default async function globalSetup(globalConfig?: { testPathPatterns?: { patterns?: string[] } }): Promise<void> {
  await Promise.all([buildDist(), probePostgres(), probeOpenstackClient(), probeAnsible(), probeChromium(), startPlacement(globalConfig?.testPathPatterns?.patterns ?? [])]);
}

/** `npm run build` in this process: a check of a few milliseconds when dist/ is up to date. */
async function buildDist(): Promise<void> {
  const { buildDist: build } = require('../../scripts/build/build-dist') as { buildDist(): Promise<string | null> };
  const done = await build();
  if (done) process.stderr.write(`\n${done}\n`);
}

/** One real Placement for the whole run (suites share it and make their own providers); its URL goes to the suites in LEDGER_TEST_PLACEMENT_URL. */
async function startPlacement(testPathPatterns: readonly string[]): Promise<void> {
  delete process.env.LEDGER_TEST_PLACEMENT_URL;
  const missing = placementMissing();
  if (missing !== undefined) {
    process.env.LEDGER_TEST_PLACEMENT_UNAVAILABLE = missing;
    return;
  }
  if (!selectsPlacementSuites(testPathPatterns)) {
    process.env.LEDGER_TEST_PLACEMENT_UNAVAILABLE = 'not started: this run selects no suite with "placement" in its path';
    return;
  }
  try {
    const service: PlacementService = await startPlacementService();
    (globalThis as Record<symbol, unknown>)[PLACEMENT_HANDLE] = service;
    process.env.LEDGER_TEST_PLACEMENT_URL = service.url;
    delete process.env.LEDGER_TEST_PLACEMENT_UNAVAILABLE;
  } catch (error) {
    process.env.LEDGER_TEST_PLACEMENT_UNAVAILABLE = `Placement did not start (${(error as Error).message})`;
  }
}

async function probePostgres(): Promise<void> {
  const url = process.env.LEDGER_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    delete process.env.LEDGER_TEST_POSTGRES_UNAVAILABLE;
  } catch (error) {
    process.env.LEDGER_TEST_POSTGRES_UNAVAILABLE = `PostgreSQL at ${url} is not reachable (${(error as Error).message}); start it with: pg_ctlcluster 15 main start`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function probeOpenstackClient(): Promise<void> {
  const problem = await openstackClientProblem();
  if (problem === undefined) delete process.env.LEDGER_TEST_OPENSTACK_CLIENT_UNAVAILABLE;
  else process.env.LEDGER_TEST_OPENSTACK_CLIENT_UNAVAILABLE = problem;
}

async function probeAnsible(): Promise<void> {
  const executable = process.env.LEDGER_TEST_ANSIBLE_PLAYBOOK ?? '/usr/bin/ansible-playbook';
  const problem = await new Promise<string | undefined>((resolve) =>
    execFile(executable, ['--version'], { timeout: 30_000 }, (error) =>
      resolve(error ? `${executable} --version failed (${error.message.split('\n')[0]}); install Debian's ansible-core` : undefined),
    ),
  );
  if (problem === undefined) delete process.env.LEDGER_TEST_ANSIBLE_UNAVAILABLE;
  else process.env.LEDGER_TEST_ANSIBLE_UNAVAILABLE = problem;
}

async function probeChromium(): Promise<void> {
  const executable = chromiumPath();
  const problem = await new Promise<string | undefined>((resolve) =>
    execFile(executable, ['--version'], { timeout: 30_000 }, (error) =>
      resolve(error ? `${executable} --version failed (${error.message.split('\n')[0]}); install Debian's chromium` : undefined),
    ),
  );
  if (problem === undefined) delete process.env.LEDGER_TEST_CHROMIUM_UNAVAILABLE;
  else process.env.LEDGER_TEST_CHROMIUM_UNAVAILABLE = problem;
}
