import { ConfigError } from './config-error';
import { loadLedgerConfig } from './ledger-config';

describe('loadLedgerConfig', () => {
  it('defaults to the embedded setup', () => {
    const config = loadLedgerConfig({}, '/srv/ledger');
    expect(config).toMatchObject({
      port: 8666,
      host: '127.0.0.1',
      store: 'sqlite',
      readModels: 'sqlite',
      dataDir: '/srv/ledger/data',
      roles: ['api', 'conductor', 'processors'],
      devNoAuth: false,
    });
  });

  it('tells Nova nothing unless LEDGER_NOVA_URL (with LEDGER_NOVA_TOKEN) or LEDGER_KEYSTONE_URL is set', () => {
    expect(loadLedgerConfig({}).nova).toBeUndefined();
    expect(loadLedgerConfig({ LEDGER_NOVA_URL: 'http://nova-api:8774/v2.1/', LEDGER_NOVA_TOKEN: 'nova-admin' }).nova).toEqual({
      via: 'settings',
      url: 'http://nova-api:8774/v2.1',
      token: 'nova-admin',
    });
    expect(loadLedgerConfig({ LEDGER_NOVA_URL: 'http://nova-api:8774/v2.1' }).nova).toEqual({ via: 'settings', url: 'http://nova-api:8774/v2.1' });
  });

  it("with LEDGER_KEYSTONE_URL, tells Nova at the catalog's compute endpoint, or LEDGER_NOVA_URL, with the ledger's Keystone token", () => {
    const keystone = { LEDGER_KEYSTONE_URL: 'http://keystone:5000/v3', LEDGER_KEYSTONE_USERNAME: 'ledger', LEDGER_KEYSTONE_PASSWORD: 'pw', LEDGER_NOVA_TOKEN: 'ignored' };
    expect(loadLedgerConfig(keystone).nova).toEqual({ via: 'keystone', serviceType: 'compute' });
    expect(loadLedgerConfig({ ...keystone, LEDGER_NOVA_URL: 'http://nova-api:8774/v2.1' }).nova).toEqual({ via: 'keystone', serviceType: 'compute', url: 'http://nova-api:8774/v2.1' });
  });

  it('watches agents every 5 s, losing a host after 3 silent intervals of 15 s unless told otherwise', () => {
    expect(loadLedgerConfig({})).toMatchObject({ agentLostAfterIntervals: 3, agentHeartbeatSeconds: 15, agentLivenessCheckMs: 5000, telemetryFlushMs: 1000, telemetryHistoryMinutes: 60, telemetryHistoryStepSeconds: 60 });
    expect(loadLedgerConfig({ LEDGER_AGENT_LOST_AFTER_INTERVALS: '1', LEDGER_AGENT_LIVENESS_CHECK_MS: '50' })).toMatchObject({
      agentLostAfterIntervals: 1,
      agentLivenessCheckMs: 50,
    });
  });

  it('fences no host automatically unless LEDGER_AUTO_FENCE_AFTER_SECONDS says after how long lost', () => {
    expect(loadLedgerConfig({}).autoFenceAfterSeconds).toBe(0);
    expect(loadLedgerConfig({ LEDGER_AUTO_FENCE_AFTER_SECONDS: '600' }).autoFenceAfterSeconds).toBe(600);
  });

  it('keeps partitions carved on demand unless LEDGER_PARTITION_RECLAIM says idle:N minutes', () => {
    expect(loadLedgerConfig({}).partitionReclaimIdleMs).toBeNull();
    expect(loadLedgerConfig({ LEDGER_PARTITION_RECLAIM: 'keep' }).partitionReclaimIdleMs).toBeNull();
    expect(loadLedgerConfig({ LEDGER_PARTITION_RECLAIM: 'idle:15' }).partitionReclaimIdleMs).toBe(900_000);
    expect(loadLedgerConfig({ LEDGER_PARTITION_RECLAIM: 'IDLE:0.5' }).partitionReclaimIdleMs).toBe(30_000);
    expect(loadLedgerConfig({ LEDGER_PARTITION_RECLAIM: 'idle:0' }).partitionReclaimIdleMs).toBe(0);
    for (const bad of ['idle', 'idle:-1', 'idle:10081', 'reclaim', 'idle:5m']) expect(() => loadLedgerConfig({ LEDGER_PARTITION_RECLAIM: bad })).toThrow(/LEDGER_PARTITION_RECLAIM/);
  });

  it('cleans GPUs, FPGAs, NPUs and DPUs after a release unless LEDGER_CLEAN_DEVICE_TYPES says otherwise', () => {
    expect(loadLedgerConfig({}).cleanDeviceTypes).toEqual(['GPU', 'FPGA', 'NPU', 'DPU']);
    expect(loadLedgerConfig({ LEDGER_CLEAN_DEVICE_TYPES: 'gpu, NIC' }).cleanDeviceTypes).toEqual(['GPU', 'NIC']);
    expect(loadLedgerConfig({ LEDGER_CLEAN_DEVICE_TYPES: 'none' }).cleanDeviceTypes).toEqual([]);
    expect(() => loadLedgerConfig({ LEDGER_CLEAN_DEVICE_TYPES: 'GPU,fpga-1' })).toThrow(/LEDGER_CLEAN_DEVICE_TYPES/);
  });

  it('shows a reactor stalled after a call outstanding 5 s unless told otherwise, and refuses a bound below 100 ms', () => {
    expect(loadLedgerConfig({}).reactorStalledAfterMs).toBe(5000);
    expect(loadLedgerConfig({ LEDGER_REACTOR_STALLED_AFTER_MS: '1500' }).reactorStalledAfterMs).toBe(1500);
    expect(() => loadLedgerConfig({ LEDGER_REACTOR_STALLED_AFTER_MS: '10' })).toThrow(/LEDGER_REACTOR_STALLED_AFTER_MS/);
  });

  it('refuses unsigned bitstreams and keeps their bytes under the data dir unless told otherwise', () => {
    expect(loadLedgerConfig({ LEDGER_DATA_DIR: 'var' }, '/srv/ledger').bitstreams).toEqual({
      allowUnsigned: false,
      contentDir: '/srv/ledger/var/bitstreams',
      originMaxBytes: 1024 ** 3,
      originTimeoutMs: 120_000,
    });
    expect(
      loadLedgerConfig(
        { LEDGER_BITSTREAM_ALLOW_UNSIGNED: 'true', LEDGER_BITSTREAM_DIR: 'images', LEDGER_BITSTREAM_ORIGIN_MAX_BYTES: '4096', LEDGER_BITSTREAM_ORIGIN_TIMEOUT_MS: '500' },
        '/srv',
      ).bitstreams,
    ).toEqual({ allowUnsigned: true, contentDir: '/srv/images', originMaxBytes: 4096, originTimeoutMs: 500 });
    expect(() => loadLedgerConfig({ LEDGER_BITSTREAM_ALLOW_UNSIGNED: 'maybe' })).toThrow(/LEDGER_BITSTREAM_ALLOW_UNSIGNED/);
    expect(() => loadLedgerConfig({ LEDGER_BITSTREAM_ORIGIN_MAX_BYTES: '0' })).toThrow(/LEDGER_BITSTREAM_ORIGIN_MAX_BYTES/);
  });

  it('signs the head every 60 s unless told otherwise, and publishes a copy where LEDGER_CHECKPOINT_PUBLISH_FILE says', () => {
    expect(loadLedgerConfig({}, '/srv/ledger')).toMatchObject({ checkpointSeconds: 60, checkpointPublishFile: undefined });
    expect(loadLedgerConfig({ LEDGER_CHECKPOINT_SECONDS: '5', LEDGER_CHECKPOINT_PUBLISH_FILE: 'audit/cp.jsonl' }, '/srv/ledger')).toMatchObject({
      checkpointSeconds: 5,
      checkpointPublishFile: '/srv/ledger/audit/cp.jsonl',
    });
    expect(() => loadLedgerConfig({ LEDGER_CHECKPOINT_SECONDS: '0' })).toThrow(ConfigError);
  });

  it('verifies the log on one thread per core unless LEDGER_AUDIT_VERIFY_THREADS says how many', () => {
    expect(loadLedgerConfig({}).auditVerifyThreads).toBe(0);
    expect(loadLedgerConfig({ LEDGER_AUDIT_VERIFY_THREADS: '3' }).auditVerifyThreads).toBe(3);
    expect(() => loadLedgerConfig({ LEDGER_AUDIT_VERIFY_THREADS: '-1' })).toThrow(/LEDGER_AUDIT_VERIFY_THREADS/);
  });

  it('snapshots the as-of read models every 25,000 events and every 60 minutes unless told otherwise (0: never)', () => {
    expect(loadLedgerConfig({})).toMatchObject({ snapshotEveryEvents: 25_000, snapshotEveryMinutes: 60, snapshotKeep: 0 });
    expect(loadLedgerConfig({ LEDGER_SNAPSHOT_KEEP: '24' })).toMatchObject({ snapshotKeep: 24 });
    expect(() => loadLedgerConfig({ LEDGER_SNAPSHOT_KEEP: '-1' })).toThrow(/LEDGER_SNAPSHOT_KEEP/);
    expect(loadLedgerConfig({ LEDGER_SNAPSHOT_EVERY_EVENTS: '0', LEDGER_SNAPSHOT_EVERY_MINUTES: '5' })).toMatchObject({ snapshotEveryEvents: 0, snapshotEveryMinutes: 5 });
    expect(() => loadLedgerConfig({ LEDGER_SNAPSHOT_EVERY_EVENTS: '-1' })).toThrow(/LEDGER_SNAPSHOT_EVERY_EVENTS/);
  });

  it("enforces Cyborg's default policy unless LEDGER_POLICY_FILE names a file, resolved from the working directory", () => {
    expect(loadLedgerConfig({}, '/srv/ledger').policyFile).toBeUndefined();
    expect(loadLedgerConfig({ LEDGER_POLICY_FILE: 'etc/policy.yaml' }, '/srv/ledger').policyFile).toBe('/srv/ledger/etc/policy.yaml');
  });

  it('refuses JSON bodies nested deeper than 64 levels unless told otherwise', () => {
    expect(loadLedgerConfig({}).jsonMaxDepth).toBe(64);
    expect(loadLedgerConfig({ LEDGER_JSON_MAX_DEPTH: '16' }).jsonMaxDepth).toBe(16);
  });

  it('serves metrics unless LEDGER_METRICS is false', () => {
    expect(loadLedgerConfig({}).metrics).toBe(true);
    expect(loadLedgerConfig({ LEDGER_METRICS: 'false' }).metrics).toBe(false);
  });

  it('logs at `log`, pretty at a terminal and JSON otherwise, unless told otherwise', () => {
    expect(loadLedgerConfig({})).toMatchObject({ logLevel: 'log', logFormat: 'auto' });
    expect(loadLedgerConfig({ LEDGER_LOG_LEVEL: 'debug', LEDGER_LOG_FORMAT: 'json' })).toMatchObject({ logLevel: 'debug', logFormat: 'json' });
    expect(() => loadLedgerConfig({ LEDGER_LOG_FORMAT: 'xml' })).toThrow(/^LEDGER_LOG_FORMAT:/);
  });

  it('binds the address HOST names, an IPv4 or IPv6 address or a host name', () => {
    expect(loadLedgerConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadLedgerConfig({ HOST: '::' }).host).toBe('::');
    expect(loadLedgerConfig({ HOST: ' ledger-api-1 ' }).host).toBe('ledger-api-1');
  });

  it('reads PostgreSQL settings and follows the store for read models', () => {
    const config = loadLedgerConfig({ LEDGER_STORE: 'postgres', LEDGER_POSTGRES_URL: 'postgres://x@h/db', PORT: '6666' });
    expect(config).toMatchObject({ store: 'postgres', readModels: 'postgres', postgresUrl: 'postgres://x@h/db', port: 6666 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ HOST: 'http://0.0.0.0' }, 'HOST'],
    [{ HOST: '127.0.0.1:8666' }, 'HOST'],
    [{ LEDGER_STORE: 'mysql' }, 'LEDGER_STORE'],
    [{ LEDGER_STORE: 'postgres' }, 'LEDGER_POSTGRES_URL'],
    [{ LEDGER_STORE: 'esdb' }, 'ESDB_CONNECTION_STRING'],
    [{ LEDGER_ROLES: 'api,cook' }, 'LEDGER_ROLES'],
    [{ LEDGER_ROLES: 'api' }, 'LEDGER_ROLES'],
    [{ LEDGER_DEV_NO_AUTH: 'maybe' }, 'LEDGER_DEV_NO_AUTH'],
    [{ LEDGER_METRICS: 'sometimes' }, 'LEDGER_METRICS'],
    [{ LEDGER_AUTH_SECRET: 'short' }, 'LEDGER_AUTH_SECRET'],
    [{ LEDGER_POSTGRES_SCHEMA: 'Robert"); DROP' }, 'LEDGER_POSTGRES_SCHEMA'],
    [{ LEDGER_AGENT_LOST_AFTER_INTERVALS: '0' }, 'LEDGER_AGENT_LOST_AFTER_INTERVALS'],
    [{ LEDGER_AUTO_FENCE_AFTER_SECONDS: 'soon' }, 'LEDGER_AUTO_FENCE_AFTER_SECONDS'],
    [{ LEDGER_AUTO_FENCE_AFTER_SECONDS: '9999999' }, 'LEDGER_AUTO_FENCE_AFTER_SECONDS'],
    [{ LEDGER_TELEMETRY_FLUSH_MS: 'soon' }, 'LEDGER_TELEMETRY_FLUSH_MS'],
    [{ LEDGER_TELEMETRY_HISTORY_MINUTES: '-1' }, 'LEDGER_TELEMETRY_HISTORY_MINUTES'],
    [{ LEDGER_TELEMETRY_HISTORY_STEP_SECONDS: '0' }, 'LEDGER_TELEMETRY_HISTORY_STEP_SECONDS'],
    [{ LEDGER_JSON_MAX_DEPTH: '5000' }, 'LEDGER_JSON_MAX_DEPTH'],
  ])('stops on an invalid setting %j naming %s', (env, setting) => {
    expect(() => loadLedgerConfig(env)).toThrow(ConfigError);
    expect(() => loadLedgerConfig(env)).toThrow(new RegExp(`^${setting}:`));
  });
});
