import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError } from './config-error';
import { booleanSetting, type Env, integerSetting, nonEmpty, urlSetting } from './env-values';
import { type BitstreamConfig, loadBitstreamConfig } from './bitstream-config';
import { type KafkaConfig, loadKafkaConfig } from './kafka-config';
import { type AuthConfig, loadAuthConfig } from './keystone-config';
import { loadPlacementConfig, type PlacementConfig } from './placement-config';
import { loadTracingConfig, type TracingConfig } from './tracing-config';
import { loadServiceEndpoint, type ServiceEndpoint } from './service-endpoint';

export const NOVA_SERVICE = { serviceType: 'compute', urlSetting: 'LEDGER_NOVA_URL', tokenSetting: 'LEDGER_NOVA_TOKEN' } as const;

export type StoreKind = 'sqlite' | 'postgres' | 'esdb';
export type ReadModelKind = 'sqlite' | 'postgres';
export type LedgerRole = 'api' | 'conductor' | 'processors';

export const LEDGER_ROLES: readonly LedgerRole[] = ['api', 'conductor', 'processors'];

/**
 * Every setting of the ledger and its CLI, parsed and validated in one place
 * at start-up. Defaults run the embedded setup: SQLite files under ./data, all
 * roles in one process, port 8666 (Cyborg's 6666 is on the browsers' and
 * fetch's blocked-port list, so it is opt-in through PORT).
 */
export interface LedgerConfig {
  /** PORT (8666). */
  readonly port: number;
  /**
   * HOST (127.0.0.1): the address the HTTP API binds. Loopback unless told
   * otherwise; 0.0.0.0 (or ::) binds every interface, as containers need.
   */
  readonly host: string;
  /** LEDGER_DATA_DIR (./data): SQLite files and the generated credentials. */
  readonly dataDir: string;
  /** LEDGER_STORE (sqlite): where events live. */
  readonly store: StoreKind;
  /** LEDGER_READ_MODELS (postgres when the store is, else sqlite). */
  readonly readModels: ReadModelKind;
  /** LEDGER_POSTGRES_URL: required when store or read models use PostgreSQL. */
  readonly postgresUrl?: string;
  /** LEDGER_POSTGRES_SCHEMA (public): lets several ledgers (or tests) share one database. */
  readonly postgresSchema?: string;
  /** ESDB_CONNECTION_STRING: required when LEDGER_STORE=esdb. */
  readonly esdbConnectionString?: string;
  /** LEDGER_ROLES (api,conductor,processors): which roles this process runs. */
  readonly roles: readonly LedgerRole[];
  /** LEDGER_INSTANCE_ID (host-pid): owner name for processor leases. */
  readonly instanceId: string;
  /**
   * LEDGER_PROCESSOR_LEASE_MS (15000): how long a processor lease holds
   * without renewal. After a crash, another instance (or the restarted one)
   * takes over the processors once it expires.
   */
  readonly processorLeaseMs: number;
  /**
   * LEDGER_REACTOR_STALLED_AFTER_MS (5000): a reactor whose call to the
   * outside (Kafka, Nova, Placement) has been outstanding this long shows
   * `stalled` in GET /api/v1/reactors, /readyz and the metrics, long before
   * the call's own timeout fails it.
   */
  readonly reactorStalledAfterMs: number;
  /** LEDGER_AUTH_SECRET: token signing key; generated under the data dir when absent. */
  readonly authSecret?: string;
  /** LEDGER_DEV_NO_AUTH (false): accept unauthenticated requests as admin. Development only. */
  readonly devNoAuth: boolean;
  /**
   * LEDGER_POLICY_FILE: an operator's policy.yaml overriding Cyborg's default
   * v2 policy rules (docs/policy.md); read and checked at start. Unset: the defaults.
   */
  readonly policyFile?: string;
  /**
   * LEDGER_HEALTH_POLICY_FILE: the health policy (YAML) that judges devices'
   * health reports (docs/operations.md, "Health policy"); read and checked at
   * start. Unset: the default policy, the same as config/health-policy.yaml.
   */
  readonly healthPolicyFile?: string;
  /** LEDGER_BODY_LIMIT_BYTES (1048576): the largest request body accepted. */
  readonly bodyLimitBytes: number;
  /**
   * LEDGER_JSON_MAX_DEPTH (64): how deeply a JSON body may nest arrays and
   * objects; a deeper one is refused (400 REQUEST.TOO_DEEP) before it is parsed.
   */
  readonly jsonMaxDepth: number;
  /**
   * LEDGER_METRICS (true): Prometheus metrics at GET /metrics (admin role,
   * docs/operations.md). Off, the route is absent and nothing is measured.
   */
  readonly metrics: boolean;
  /** LEDGER_LOG_LEVEL (log): error, warn, log, debug or verbose. */
  readonly logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /**
   * LEDGER_LOG_FORMAT (auto): `json`, one JSON object a line; `pretty`, for a
   * person; `auto`, pretty when stdout is a terminal and JSON otherwise.
   */
  readonly logFormat: 'auto' | 'json' | 'pretty';
  /**
   * Where `accelerator-request-bound` events go once an instance's requests
   * are resolved; undefined: none are sent (Nova then relies on polling).
   * LEDGER_NOVA_URL: Nova's compute endpoint (e.g. http://nova-api:8774/v2.1),
   * with LEDGER_NOVA_TOKEN (a token with Nova's admin rights) as X-Auth-Token.
   * With LEDGER_KEYSTONE_URL set the notifier is on: the ledger's Keystone
   * token, at LEDGER_NOVA_URL if set, else the catalog's `compute` endpoint;
   * LEDGER_NOVA_TOKEN is not used.
   */
  readonly nova?: ServiceEndpoint;
  /**
   * LEDGER_BIND_TIMEOUT_MS (60000): how long a bind request waits for its
   * workflow to end before answering with the bind still starting (the
   * workflow goes on; Nova hears its outcome).
   */
  readonly bindTimeoutMs: number;
  /**
   * LEDGER_AGENT_LOST_AFTER_INTERVALS (3): a host whose agent sent neither a
   * report nor a heartbeat for this many of its heartbeat intervals is
   * recorded lost (inventory.AgentLost).
   */
  readonly agentLostAfterIntervals: number;
  /**
   * LEDGER_AUTO_FENCE_AFTER_SECONDS (0: off): a host whose agent has been
   * lost this long is fenced automatically (reason `agent lost since …`, by
   * `ledger:auto-fence`), as `ledgerctl host fence` would. At most 30 days.
   */
  readonly autoFenceAfterSeconds: number;
  /**
   * LEDGER_CLEAN_DEVICE_TYPES (GPU,FPGA,NPU,DPU; `none`: none): the device
   * types whose released attach handles are cleaned by their agent before
   * they are offered again (docs/configuration.md says why these).
   */
  readonly cleanDeviceTypes: readonly string[];
  /**
   * LEDGER_PARTITION_RECLAIM (`keep`; or `idle:N`, N minutes, 0–10080, a
   * decimal allowed): a partition carved on demand is kept once released,
   * or reclaimed (destroyed, its slices given back) after N idle minutes
   * (docs/partitions.md, "Reclaim"). Null: keep.
   */
  readonly partitionReclaimIdleMs: number | null;
  /** LEDGER_AGENT_HEARTBEAT_SECONDS (15): the heartbeat interval assumed for a host until its agent announces its own. */
  readonly agentHeartbeatSeconds: number;
  /** LEDGER_AGENT_LIVENESS_CHECK_MS (5000): how often the liveness monitor (processors role) looks for silent hosts. */
  readonly agentLivenessCheckMs: number;
  /**
   * LEDGER_TELEMETRY_FLUSH_MS (1000): how often an API replica writes the
   * heartbeats it received to the live view; other replicas and the
   * liveness monitor see values at most this old.
   */
  readonly telemetryFlushMs: number;
  /**
   * LEDGER_TELEMETRY_HISTORY_MINUTES (60): how far back the live view keeps
   * each device's telemetry, one sample per step (0: no history, only the
   * latest sample). Telemetry, not events: a rebuild does not bring it back.
   */
  readonly telemetryHistoryMinutes: number;
  /** LEDGER_TELEMETRY_HISTORY_STEP_SECONDS (60): one kept sample per device per step (the step's last heartbeat). */
  readonly telemetryHistoryStepSeconds: number;
  /**
   * LEDGER_CHECKPOINT_SECONDS (60): how often a conductor signs the log's head
   * (when it moved; also on shutdown). Events after the newest checkpoint
   * are only as safe from an undetected rewrite or cut as this interval.
   */
  readonly checkpointSeconds: number;
  /**
   * LEDGER_CHECKPOINT_PUBLISH_FILE: a second, append-only copy of every signed
   * checkpoint (e.g. on a mount the auditor controls), for `audit verify --checkpoints`.
   */
  readonly checkpointPublishFile?: string;
  /**
   * LEDGER_AUDIT_VERIFY_THREADS (0: one per core): worker threads that verify
   * ranges of the log at once (`audit verify`, GET /api/v1/audit/verify); a
   * small log is verified on one thread whatever this says.
   */
  readonly auditVerifyThreads: number;
  /**
   * LEDGER_SNAPSHOT_EVERY_EVENTS (25000; 0: never by count) and
   * LEDGER_SNAPSHOT_EVERY_MINUTES (60; 0: never by time): the processors
   * role snapshots the read models that answer `asOf` each time the log has
   * grown that many events, and at the head once that long has passed, so
   * an as-of answer replays at most about that many events.
   */
  readonly snapshotEveryEvents: number;
  readonly snapshotEveryMinutes: number;
  /**
   * LEDGER_SNAPSHOT_KEEP (0: all): the snapshots of each read model kept,
   * newest first; after each new one, older ones and those of other
   * projection versions are deleted. A snapshot is the size of its read
   * model, so this bounds the directory.
   */
  readonly snapshotKeep: number;
  /** LEDGER_PLACEMENT_*: the Placement reconciler (placement-config.ts). */
  readonly placement: PlacementConfig;
  /** LEDGER_BITSTREAM_*: bitstream registration (bitstream-config.ts). */
  readonly bitstreams: BitstreamConfig;
  /** LEDGER_KAFKA_*: the Kafka relay (kafka-config.ts). */
  readonly kafka: KafkaConfig;
  /** OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and OTEL_*: OpenTelemetry spans over OTLP (tracing-config.ts); absent: tracing is off. */
  readonly tracing?: TracingConfig;
  /** LEDGER_AUTH, LEDGER_KEYSTONE_*: whose tokens are accepted, and the ledger as a Keystone client (keystone-config.ts). */
  readonly auth: AuthConfig;
}


export function loadLedgerConfig(env: Env = process.env, cwd = process.cwd()): LedgerConfig {
  const store = oneOf(env, 'LEDGER_STORE', ['sqlite', 'postgres', 'esdb'] as const, 'sqlite');
  const readModels = oneOf(env, 'LEDGER_READ_MODELS', ['sqlite', 'postgres'] as const, store === 'postgres' ? 'postgres' : 'sqlite');
  const postgresUrl = nonEmpty(env.LEDGER_POSTGRES_URL);
  if ((store === 'postgres' || readModels === 'postgres') && !postgresUrl) {
    throw new ConfigError('LEDGER_POSTGRES_URL', 'required when LEDGER_STORE or LEDGER_READ_MODELS is postgres (e.g. postgres://user@127.0.0.1:5432/ledger)');
  }
  const esdbConnectionString = nonEmpty(env.ESDB_CONNECTION_STRING);
  if (store === 'esdb' && !esdbConnectionString) {
    throw new ConfigError('ESDB_CONNECTION_STRING', 'required when LEDGER_STORE=esdb (e.g. esdb://127.0.0.1:2113?tls=false)');
  }
  const postgresSchema = nonEmpty(env.LEDGER_POSTGRES_SCHEMA);
  if (postgresSchema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(postgresSchema)) {
    throw new ConfigError('LEDGER_POSTGRES_SCHEMA', `"${postgresSchema}" is not a plain lower-case SQL identifier`);
  }
  const authSecret = nonEmpty(env.LEDGER_AUTH_SECRET);
  if (authSecret !== undefined && authSecret.length < 32) {
    throw new ConfigError('LEDGER_AUTH_SECRET', 'must be at least 32 characters');
  }
  const dataDir = resolve(cwd, nonEmpty(env.LEDGER_DATA_DIR) ?? 'data');
  const auth = loadAuthConfig(env);
  const nova = loadServiceEndpoint(env, auth.keystone !== undefined, NOVA_SERVICE);
  const tracing = loadTracingConfig(env);
  return {
    port: integerSetting(env, 'PORT', 8666, 0, 65535),
    host: listenHost(env),
    dataDir,
    store,
    readModels,
    postgresUrl,
    postgresSchema,
    esdbConnectionString,
    roles: roles(env),
    instanceId: nonEmpty(env.LEDGER_INSTANCE_ID) ?? `${hostname()}-${process.pid}`,
    processorLeaseMs: integerSetting(env, 'LEDGER_PROCESSOR_LEASE_MS', 15_000, 1_000, 600_000),
    reactorStalledAfterMs: integerSetting(env, 'LEDGER_REACTOR_STALLED_AFTER_MS', 5_000, 100, 600_000),
    authSecret,
    devNoAuth: booleanSetting(env, 'LEDGER_DEV_NO_AUTH', false),
    policyFile: optionalPath(env, 'LEDGER_POLICY_FILE', cwd),
    healthPolicyFile: optionalPath(env, 'LEDGER_HEALTH_POLICY_FILE', cwd),
    bodyLimitBytes: integerSetting(env, 'LEDGER_BODY_LIMIT_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    jsonMaxDepth: integerSetting(env, 'LEDGER_JSON_MAX_DEPTH', 64, 8, 1024),
    metrics: booleanSetting(env, 'LEDGER_METRICS', true),
    logLevel: oneOf(env, 'LEDGER_LOG_LEVEL', ['error', 'warn', 'log', 'debug', 'verbose'] as const, 'log'),
    logFormat: oneOf(env, 'LEDGER_LOG_FORMAT', ['auto', 'json', 'pretty'] as const, 'auto'),
    ...(nova !== undefined ? { nova } : {}),
    bindTimeoutMs: integerSetting(env, 'LEDGER_BIND_TIMEOUT_MS', 60_000, 100, 3_600_000),
    agentLostAfterIntervals: integerSetting(env, 'LEDGER_AGENT_LOST_AFTER_INTERVALS', 3, 1, 100),
    autoFenceAfterSeconds: integerSetting(env, 'LEDGER_AUTO_FENCE_AFTER_SECONDS', 0, 0, 30 * 86_400),
    cleanDeviceTypes: cleanDeviceTypes(env),
    partitionReclaimIdleMs: partitionReclaimIdleMs(env),
    agentHeartbeatSeconds: integerSetting(env, 'LEDGER_AGENT_HEARTBEAT_SECONDS', 15, 1, 3600),
    agentLivenessCheckMs: integerSetting(env, 'LEDGER_AGENT_LIVENESS_CHECK_MS', 5_000, 20, 600_000),
    telemetryFlushMs: integerSetting(env, 'LEDGER_TELEMETRY_FLUSH_MS', 1_000, 10, 60_000),
    telemetryHistoryMinutes: integerSetting(env, 'LEDGER_TELEMETRY_HISTORY_MINUTES', 60, 0, 10_080),
    telemetryHistoryStepSeconds: integerSetting(env, 'LEDGER_TELEMETRY_HISTORY_STEP_SECONDS', 60, 1, 3600),
    checkpointSeconds: integerSetting(env, 'LEDGER_CHECKPOINT_SECONDS', 60, 1, 86_400),
    checkpointPublishFile: optionalPath(env, 'LEDGER_CHECKPOINT_PUBLISH_FILE', cwd),
    auditVerifyThreads: integerSetting(env, 'LEDGER_AUDIT_VERIFY_THREADS', 0, 0, 256),
    snapshotEveryEvents: integerSetting(env, 'LEDGER_SNAPSHOT_EVERY_EVENTS', 25_000, 0, 100_000_000),
    snapshotEveryMinutes: integerSetting(env, 'LEDGER_SNAPSHOT_EVERY_MINUTES', 60, 0, 10_080),
    snapshotKeep: integerSetting(env, 'LEDGER_SNAPSHOT_KEEP', 0, 0, 1_000_000),
    placement: loadPlacementConfig(env, auth.keystone !== undefined),
    bitstreams: loadBitstreamConfig(env, dataDir, cwd),
    kafka: loadKafkaConfig(env),
    ...(tracing !== undefined ? { tracing } : {}),
    auth,
  };
}

function optionalPath(env: Env, name: string, cwd: string): string | undefined {
  const value = nonEmpty(env[name]);
  return value === undefined ? undefined : resolve(cwd, value);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = nonEmpty(env[name]);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `"${value}" is not one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** An IP address or a host name to resolve; a URL or a port here is a mistake worth stopping for. */
function listenHost(env: Env): string {
  const value = nonEmpty(env.HOST);
  if (value === undefined) return '127.0.0.1';
  if (isIP(value) === 0 && !/^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(value)) {
    throw new ConfigError('HOST', `"${value}" is neither an IP address nor a host name (e.g. 127.0.0.1, 0.0.0.0, ::)`);
  }
  return value;
}

function roles(env: Env): LedgerRole[] {
  const value = nonEmpty(env.LEDGER_ROLES);
  if (value === undefined) return [...LEDGER_ROLES];
  const parsed = value.split(',').map((role) => role.trim());
  for (const role of parsed) {
    if (!(LEDGER_ROLES as readonly string[]).includes(role)) {
      throw new ConfigError('LEDGER_ROLES', `"${role}" is not one of ${LEDGER_ROLES.join(', ')}`);
    }
  }
  if (parsed.includes('api') && !parsed.includes('conductor')) {
    throw new ConfigError('LEDGER_ROLES', 'the api role runs commands in-process, so it needs the conductor role too (api,conductor)');
  }
  return [...new Set(parsed)] as LedgerRole[];
}

/** Devices that keep a tenant's data in their own memory (GPU, NPU, DPU) or its logic in a region (FPGA). */
const DEFAULT_CLEAN_DEVICE_TYPES = ['GPU', 'FPGA', 'NPU', 'DPU'];

function partitionReclaimIdleMs(env: Env): number | null {
  const raw = nonEmpty(env.LEDGER_PARTITION_RECLAIM)?.toLowerCase();
  if (raw === undefined || raw === 'keep') return null;
  const minutes = /^idle:(\d+(?:\.\d+)?)$/.exec(raw)?.[1];
  if (minutes === undefined || Number(minutes) > 10_080) {
    throw new ConfigError('LEDGER_PARTITION_RECLAIM', `must be keep or idle:N (N idle minutes, at most 10080); got "${env.LEDGER_PARTITION_RECLAIM}"`);
  }
  return Math.round(Number(minutes) * 60_000);
}

function cleanDeviceTypes(env: Env): string[] {
  const raw = nonEmpty(env.LEDGER_CLEAN_DEVICE_TYPES);
  if (raw === undefined) return DEFAULT_CLEAN_DEVICE_TYPES;
  if (raw.toLowerCase() === 'none') return [];
  const types = raw.split(',').map((type) => type.trim().toUpperCase());
  const bad = types.find((type) => !/^[A-Z][A-Z0-9_]*$/.test(type));
  if (bad !== undefined) throw new ConfigError('LEDGER_CLEAN_DEVICE_TYPES', `must be device types separated by commas (GPU,FPGA) or none; got "${bad}"`);
  return [...new Set(types)];
}
