import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateCredentials } from '@ledger/auth';
import { dataFiles, loadLedgerConfig } from '@ledger/config';
import { withPostgresClient } from '../../support/postgres-client';
import { type LedgerServer, startLedgerServer } from './ledger-server';

/** One replica to start: its LEDGER_INSTANCE_ID and LEDGER_ROLES. */
export interface ReplicaSpec {
  readonly instance: string;
  readonly roles: string;
}

/** A started replica. */
export interface LedgerReplica extends ReplicaSpec {
  readonly server: LedgerServer;
}

/** Compiled ledger processes sharing one PostgreSQL schema and one data directory (its signing key), as the scale-out deployment runs them. */
export interface LedgerReplicas {
  readonly schema: string;
  readonly replicas: readonly LedgerReplica[];
  /** The replicas serving the API (`api` among their roles), in start order. */
  readonly apis: readonly LedgerServer[];
  /** The PostgreSQL server processes (backends) serving the replicas' connections now, by their application_name. */
  postgresBackends(): Promise<number[]>;
  /** Whether the server runs autovacuum (`SHOW autovacuum`). */
  autovacuum(): Promise<boolean>;
  /** ANALYZE on every table of the schema: what autovacuum's analyze does on a server that runs it. */
  analyze(): Promise<void>;
  /** What the replicas appended after `position`, by event type (`inventory.AgentLost ×3`), read from the schema's log. */
  appendedTypes(position: number): Promise<string>;
  /** Stops every replica, drops the schema and removes the data directory. */
  stop(): Promise<void>;
}

/**
 * Starts `replicas` on a fresh schema of `postgresUrl` (LEDGER_STORE=postgres,
 * LEDGER_POSTGRES_SCHEMA), with one shared LEDGER_DATA_DIR whose signing key
 * is made first, so every replica accepts the tokens any of them issues.
 * Replicas without the `api` role start first and must answer /readyz; an
 * API replica is ready only once a processors replica has prepared the read
 * models (test/support/scale-out.ts lists the deployment the e2e test runs).
 */
export async function startLedgerReplicas(
  progress: (message: string) => void,
  postgresUrl: string,
  specs: readonly ReplicaSpec[],
  env: Record<string, string> = {},
): Promise<LedgerReplicas> {
  await dropLeftSchemas(postgresUrl);
  const schema = `${SCHEMA_PREFIX}${process.pid}_${Date.now().toString(36)}`;
  // Every connection of the replicas says whose it is, so PostgreSQL's backends serving them can be told from other clients'.
  const replicasUrl = new URL(postgresUrl);
  replicasUrl.searchParams.set('application_name', schema);
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-replicas-'));
  loadOrCreateCredentials(dataFiles(loadLedgerConfig({ LEDGER_DATA_DIR: dataDir })));
  const started: LedgerReplica[] = [];
  const stop = async () => {
    for (const replica of [...started].reverse()) await replica.server.stop();
    await withPostgresClient(postgresUrl, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    rmSync(dataDir, { recursive: true, force: true });
  };
  const servesApi = (spec: ReplicaSpec) => spec.roles.split(',').some((role) => role.trim() === 'api');
  try {
    for (const spec of [...specs.filter((spec) => !servesApi(spec)), ...specs.filter(servesApi)]) {
      const server = await startLedgerServer(progress, {
        LEDGER_STORE: 'postgres',
        LEDGER_POSTGRES_URL: replicasUrl.toString(),
        LEDGER_POSTGRES_SCHEMA: schema,
        LEDGER_ROLES: spec.roles,
        LEDGER_INSTANCE_ID: spec.instance,
        ...env,
      }, { dataDir });
      started.push({ ...spec, server });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const replicas = specs.map((spec) => started.find((replica) => replica.instance === spec.instance) as LedgerReplica);
  const appendedTypes = async (position: number) => {
    const { rows } = await withPostgresClient(postgresUrl, (client) =>
      client.query<{ type: string; count: string }>(`SELECT type, COUNT(*) AS count FROM ${schema}.ledger_events WHERE position > $1 GROUP BY type ORDER BY count DESC`, [position]),
    );
    return rows.map((row) => `${row.type} ×${row.count}`).join(', ');
  };
  const postgresBackends = async () => {
    const { rows } = await withPostgresClient(postgresUrl, (client) => client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [schema]));
    return rows.map((row) => row.pid);
  };
  const autovacuum = async () => (await withPostgresClient(postgresUrl, (client) => client.query<{ autovacuum: string }>('SHOW autovacuum'))).rows[0]?.autovacuum === 'on';
  const analyze = () =>
    withPostgresClient(postgresUrl, async (client) => {
      const { rows } = await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema]);
      for (const { tablename } of rows) await client.query(`ANALYZE ${schema}."${tablename}"`);
    });
  return { schema, replicas, apis: replicas.filter(servesApi).map((replica) => replica.server), postgresBackends, autovacuum, analyze, appendedTypes, stop };
}

const SCHEMA_PREFIX = 'bench_replicas_';

/**
 * Drops the schemas of earlier runs whose process is gone: an interrupted
 * bench exits without waiting for `stop` (the runner removes only the
 * target's own schemas).
 */
async function dropLeftSchemas(postgresUrl: string): Promise<void> {
  await withPostgresClient(postgresUrl, async (client) => {
    const { rows } = await client.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE '${SCHEMA_PREFIX}%'`);
    for (const { nspname } of rows) {
      const pid = Number(nspname.slice(SCHEMA_PREFIX.length).split('_')[0]);
      if (Number.isInteger(pid) && !running(pid)) await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
    }
  });
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
