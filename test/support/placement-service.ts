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
