import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
 * few writes), fernet tokens, `keystone-manage bootstrap`, then its public
 * WSGI application from a wsgiref server (test/support/keystone-wsgi.py) on
 * a free loopback port.
 *
 * Five suites start a Keystone each, and `keystone-manage` is a Python
 * start-up of about 2 CPU-s a command, so what does not differ between them
 * is done once: the schema (`db_sync`) goes into a template database that
 * each Keystone's own database is created from (`keystoneTemplate`), and
 * the key repositories `fernet_setup` and `credential_setup` would make
 * (a staged key `0` and a primary `1`, Fernet keys in a directory only the
 * owner reads) are written here. About 3 s to set up, 2 s to start.
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
  await createFromTemplate(options.postgresUrl, database, dir);
  for (const repository of ['fernet-keys', 'credential-keys']) writeKeyRepository(join(dir, repository));
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
    await manage('bootstrap', '--bootstrap-password', adminPassword, '--bootstrap-public-url', url, '--bootstrap-region-id', 'RegionOne');
    await service.start();
  } catch (error) {
    await service.dispose();
    throw error;
  }
  return service;
}

/** One lock for every process that may build or copy the template (Jest's workers start suites at once). */
const TEMPLATE_LOCK = 7_302_026;

/** The template is named after the installed Keystone, so an upgrade of the package migrates a new one. */
function templateName(): string {
  const info = readdirSync('/usr/lib/python3/dist-packages').find((name) => /^keystone-[\d.]+\.(egg|dist)-info$/.test(name));
  const version = info?.replace(/^keystone-/, '').replace(/\.(egg|dist)-info$/, '') ?? 'unknown';
  return `keystone_template_${version.replace(/\W/g, '_')}`;
}

/**
 * Creates `database` as a copy of the template (PostgreSQL copies its files:
 * well under a second), building the template first when this PostgreSQL has
 * none for this Keystone: `db_sync` into a database of another name, renamed
 * once it is whole, under an advisory lock that copies also take (a copy
 * needs no other session in its template).
 */
async function createFromTemplate(postgresUrl: string, database: string, dir: string): Promise<void> {
  const template = templateName();
  await withPostgresClient(postgresUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (found.rowCount === 0) {
        const building = `${template}_building`;
        await client.query(`DROP DATABASE IF EXISTS ${building}`);
        await client.query(`CREATE DATABASE ${building}`);
        const buildConfig = join(dir, 'template.conf');
        writeFileSync(buildConfig, keystoneConf(dir, building, { postgresUrl }));
        await runPython([KEYSTONE_MANAGE, '--config-file', buildConfig, 'db_sync'], dir);
        await client.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
      }
      await client.query(`CREATE DATABASE ${database} TEMPLATE ${template}`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
}

/** What `keystone-manage fernet_setup` (and `credential_setup`) leave: a directory only its owner reads, keys `0` (staged) and `1` (primary). */
function writeKeyRepository(directory: string): void {
  mkdirSync(directory, { mode: 0o700 });
  // A Fernet key: 32 random bytes in URL-safe base64, padding kept (Python's base64.urlsafe_b64encode).
  const fernetKey = () => randomBytes(32).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  for (const name of ['0', '1']) writeFileSync(join(directory, name), fernetKey(), { mode: 0o600 });
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
