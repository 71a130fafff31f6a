import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ledger-process';
import { DEBIAN_PYTHON, pythonService, runPython } from './python-service';

/**
 * A real OpenStack Placement (Debian's python3-placement 8.0.0) for tests
 * and benchmarks, as DESIGN.md starts it: `placement-manage db sync` on a
 * config in a temporary directory (noauth2, SQLite), then `placement-api`
 * on a free loopback port with OS_PLACEMENT_CONFIG_DIR (it ignores
 * --config-file). Debian's scripts run with /usr/bin/python3: a pyenv python
 * lacks their modules.
 */
export const PLACEMENT_API = '/usr/bin/placement-api';
const PLACEMENT_MANAGE = '/usr/bin/placement-manage';

export interface PlacementService {
  readonly url: string;
  readonly pid: number | undefined;
  /** Kills the server; the database stays, so `start` brings back the same Placement. */
  stop(): Promise<void>;
  /** Starts it again on the same port and database. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

/** Why a real Placement cannot be started here, or undefined when it can. */
export function placementMissing(): string | undefined {
  for (const file of [PLACEMENT_API, PLACEMENT_MANAGE, DEBIAN_PYTHON]) if (!existsSync(file)) return `${file} is missing; install Debian's python3-placement`;
  return undefined;
}

/** Placement's own service user behind Keystone: it validates tokens as this user (give it admin and service in project `service`). */
export const PLACEMENT_KEYSTONE_USER = { user: 'placement', password: 'placement-pw' } as const;

/**
 * A Placement that takes only Keystone tokens, validated by keystonemiddleware.
 * `tokenCacheSeconds`: -1 (the default here) checks every call with Keystone,
 * so a revocation counts at once; a deployment's cache (keystonemiddleware's
 * 300 s) spares Keystone a validation per call.
 */
export function placementWithKeystone(keystoneUrl: string, options: { readonly tokenCacheSeconds?: number } = {}): readonly string[] {
  return [
    '[api]',
    'auth_strategy = keystone',
    '[keystone_authtoken]',
    `www_authenticate_uri = ${keystoneUrl}`,
    `auth_url = ${keystoneUrl}`,
    'auth_type = password',
    `username = ${PLACEMENT_KEYSTONE_USER.user}`,
    `password = ${PLACEMENT_KEYSTONE_USER.password}`,
    'project_name = service',
    'user_domain_name = Default',
    'project_domain_name = Default',
    `token_cache_time = ${options.tokenCacheSeconds ?? -1}`,
    // The test Keystone's catalog has public endpoints only; keystonemiddleware looks for internal ones by default.
    'interface = public',
  ];
}

/** A Placement with an empty database, ready to answer. */
export async function startPlacementService(options: { readonly config?: readonly string[] } = {}): Promise<PlacementService> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-placement-'));
  const config = join(dir, 'placement.conf');
  writeFileSync(
    config,
    [
      '[DEFAULT]',
      'debug = false',
      '[placement_database]',
      `connection = sqlite:///${join(dir, 'placement.sqlite')}`,
      ...(options.config ?? ['[api]', 'auth_strategy = noauth2']),
      '',
    ].join('\n'),
  );
  await runPython([PLACEMENT_MANAGE, '--config-file', config, 'db', 'sync'], dir);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = pythonService({
    name: 'placement-api',
    dir,
    args: [PLACEMENT_API, '--host', '127.0.0.1', '--port', String(port)],
    env: { OS_PLACEMENT_CONFIG_DIR: dir },
    readyUrl: url,
  });
  const service: PlacementService = {
    url,
    get pid() {
      return server.pid;
    },
    start: () => server.start(),
    stop: () => server.stop(),
    async dispose() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await service.start();
  } catch (error) {
    await service.dispose();
    throw error;
  }
  return service;
}
