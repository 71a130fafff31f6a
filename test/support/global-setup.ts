import { execFile } from 'node:child_process';
import { Client } from 'pg';
import { openstackClientProblem } from './openstack-cli';

/**
 * Once per Jest run: compiles what changed into dist/ (e2e suites start
 * compiled processes, so they never run a stale build), and probes the real
 * services; suites read the verdicts from the environment.
 */
export default async function globalSetup(): Promise<void> {
  await Promise.all([buildDist(), probePostgres(), probeOpenstackClient(), probeAnsible()]);
}

/** `npm run build` in this process: a check of a few milliseconds when dist/ is up to date. */
async function buildDist(): Promise<void> {
  const { buildDist: build } = require('../../scripts/build/build-dist') as { buildDist(): Promise<string | null> };
  const done = await build();
  if (done) process.stderr.write(`\n${done}\n`);
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
