import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { KeystoneAdmin } from './keystone-admin';
import { freePort } from './ledger-process';
import { withPostgresClient } from './postgres-client';
import { DEBIAN_PYTHON, pythonService, runPython } from './python-service';

/**
 * A real OpenStack Keystone (Debian's python3-keystone) for tests and
 * benchmarks, as DESIGN.md starts it: a fresh database on the local
 * PostgreSQL (on SQLite Keystone answers 500 "database is locked" after a
 * few writes), fernet tokens, `keystone-manage db_sync`, `fernet_setup`,
 * `credential_setup` and `bootstrap`, then its public WSGI application from
 * a wsgiref server (test/support/keystone-wsgi.py) on a free loopback port.
 * About 8 s to set up, 2 s to start.
 */
const KEYSTONE_MANAGE = '/usr/bin/keystone-manage';
/** The server script, beside this file in the sources (dist/ holds only the compiled code, so look up from there too). */
const WSGI_SCRIPT = besideInSources('keystone-wsgi.py');

export interface KeystoneService {
  /** The identity endpoint, `http://127.0.0.1:PORT/v3` (what `--os-auth-url` takes). */
  readonly url: string;
  readonly pid: number | undefined;
  /** The bootstrap admin's password (user `admin`, project `admin`, domain Default). */
  readonly adminPassword: string;
  /** A client with the bootstrap admin's token, for creating what a test needs. */
  admin(): Promise<KeystoneAdmin>;
  /** Kills the server; the database stays, so `start` brings back the same Keystone. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and drops its database and directory. */
  dispose(): Promise<void>;
}

export interface KeystoneServiceOptions {
  /** The PostgreSQL where Keystone gets a fresh database of its own (dropped by `dispose`). */
  readonly postgresUrl: string;
  /** `[token] expiration` in seconds (Keystone's default: 3600). */
  readonly tokenExpirationSeconds?: number;
}

/** Why a real Keystone cannot be started here, or undefined when it can. */
export function keystoneMissing(): string | undefined {
  for (const file of [KEYSTONE_MANAGE, DEBIAN_PYTHON]) if (!existsSync(file)) return `${file} is missing; install Debian's python3-keystone and python3-psycopg2`;
  if (!existsSync('/usr/lib/python3/dist-packages/psycopg2')) return "psycopg2 is missing; install Debian's python3-psycopg2";
  return undefined;
}

export async function startKeystoneService(options: KeystoneServiceOptions): Promise<KeystoneService> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-keystone-'));
  const database = `keystone_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const adminPassword = `admin-${Math.random().toString(36).slice(2)}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/v3`;
  const config = join(dir, 'keystone.conf');
  writeFileSync(config, keystoneConf(dir, database, options));
  await withPostgresClient(options.postgresUrl, (client) => client.query(`CREATE DATABASE ${database}`));
  const manage = (...args: string[]) => runPython([KEYSTONE_MANAGE, '--config-file', config, ...args], dir);
  const server = pythonService({ name: 'keystone', dir, args: [WSGI_SCRIPT, config, String(port)], readyUrl: url });
  const service: KeystoneService = {
    url,
    adminPassword,
    get pid() {
      return server.pid;
    },
    admin: () => KeystoneAdmin.signIn(url, adminPassword),
    start: () => server.start(),
    stop: () => server.stop(),
    async dispose() {
      await server.stop();
      await withPostgresClient(options.postgresUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${database}`)).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await manage('db_sync');
    // Keystone takes numeric ids here as well as names: whoever runs the tests owns the keys.
    const owner = ['--keystone-user', String(process.getuid?.() ?? 0), '--keystone-group', String(process.getgid?.() ?? 0)];
    await manage('fernet_setup', ...owner);
    await manage('credential_setup', ...owner);
    await manage('bootstrap', '--bootstrap-password', adminPassword, '--bootstrap-public-url', url, '--bootstrap-region-id', 'RegionOne');
    await service.start();
  } catch (error) {
    await service.dispose();
    throw error;
  }
  return service;
}

function keystoneConf(dir: string, database: string, options: KeystoneServiceOptions): string {
  const { hostname, port } = new URL(options.postgresUrl);
  return [
    '[DEFAULT]',
    'debug = false',
    '[database]',
    `connection = postgresql+psycopg2://postgres@${hostname}:${port || 5432}/${database}`,
    '[fernet_tokens]',
    `key_repository = ${join(dir, 'fernet-keys')}`,
    // Receipts (multi-factor auth) default to /etc/keystone/fernet-keys too; keep everything in the directory.
    '[fernet_receipts]',
    `key_repository = ${join(dir, 'fernet-keys')}`,
    '[credential]',
    `key_repository = ${join(dir, 'credential-keys')}`,
    '[token]',
    'provider = fernet',
    ...(options.tokenExpirationSeconds !== undefined ? [`expiration = ${options.tokenExpirationSeconds}`] : []),
    '',
  ].join('\n');
}


function besideInSources(name: string): string {
  for (let directory = __dirname; ; directory = dirname(directory)) {
    const candidate = join(directory, 'test', 'support', name);
    if (existsSync(join(directory, name))) return join(directory, name);
    if (existsSync(candidate)) return candidate;
    if (dirname(directory) === directory) throw new Error(`${name} not found above ${__dirname}`);
  }
}
