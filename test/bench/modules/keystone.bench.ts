import { authenticate, KeystoneSession, KeystoneTokens, TokenCodec } from '@ledger/auth';
import { keystoneMissing, type KeystoneService, startKeystoneService } from '../../support/keystone-service';
import type { BenchContext } from '../bench-context';
import { benchPostgresUrl } from '../bench-options';
import type { BenchModule, Measurement } from '../bench-module';
import { createArqs, fpgaProfileCall, reportFpgaHosts } from '../fixtures/cyborg-v2-fleet';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, startLedgerServer } from '../http/ledger-server';
import { measureHttpLatency } from '../measure/http-latency';
import { percentile } from '../measure/statistics';

const HOSTS = 4;
const PRESENT_ARQS = 100;
const PROFILE = 'fpga-dp';
/** Validations by the cache alone, timed together: a single one is too short for the clock. */
const CACHED_CALLS = 200_000;
/** Tokens validated once each, for the cost of a validation that goes to Keystone. */
const UNCACHED_TOKENS = 50;

/**
 * The ledger with LEDGER_AUTH=keystone against a real Keystone (Debian's
 * python3-keystone, started here): `v2_list_arqs_keystone_p50_ms` lists 100
 * accelerator requests with a Keystone token whose validation is cached,
 * sequentially on one connection, beside `…_ledger_token_p50_ms`, the same
 * list on the same ledger with a ledger token (each twice, alternated, the
 * better run kept). What the cache adds is
 * measured directly rather than as the difference of two medians (which
 * noise can make negative): `keystone_cached_validation_ms` is the time of
 * one `authenticate` of a cached Keystone token, in this process.
 */
export const keystoneBench: BenchModule = {
  records: [
    { name: 'v2_list_arqs_keystone_p50_ms', unit: 'ms', min: 0 },
    { name: 'v2_list_arqs_keystone_p99_ms', unit: 'ms', min: 0 },
    { name: 'v2_list_arqs_keystone_ledger_token_p50_ms', unit: 'ms', min: 0 },
    { name: 'keystone_cached_validation_ms', unit: 'ms', digits: 5, min: 0 },
    { name: 'keystone_uncached_validation_p50_ms', unit: 'ms', min: 0 },
  ],
  async run(context, wanted) {
    if (context.target.name !== 'sqlite') {
      context.progress('keystone: skipped; token validation does not depend on the store, so it is measured on the sqlite pass');
      return [];
    }
    const missing = keystoneMissing();
    if (missing !== undefined) {
      context.progress(`keystone: SKIPPED, ${missing}`);
      return [];
    }
    const keystone = await startKeystoneService({ postgresUrl: benchPostgresUrl() });
    try {
      return await measureWithKeystone(context, wanted, keystone);
    } finally {
      await keystone.dispose();
    }
  },
};

async function measureWithKeystone(context: BenchContext, wanted: ReadonlySet<string>, keystone: KeystoneService): Promise<Measurement[]> {
  const admin = await keystone.admin();
  await admin.userWithRoles('ledger', 'ledger-pw', await admin.createProject('service'), ['service']);
  const project = await admin.createProject('tenant-a');
  await admin.userWithRoles('alice', 'alice-pw', project, ['member']);
  const alice = (await admin.issue({ user: 'alice', password: 'alice-pw', project: 'tenant-a' })).token;
  const credentials = { LEDGER_KEYSTONE_USERNAME: 'ledger', LEDGER_KEYSTONE_PASSWORD: 'ledger-pw' };
  const results: Measurement[] = [];

  if (wanted.has('keystone_cached_validation_ms') || wanted.has('keystone_uncached_validation_p50_ms')) {
    const fresh = [];
    for (let n = 0; n < UNCACHED_TOKENS; n++) fresh.push((await admin.issue({ user: 'alice', password: 'alice-pw', project: 'tenant-a' })).token);
    results.push(...(await measureValidation(context, keystone.url, alice, fresh)).filter((measurement) => wanted.has(measurement.name)));
  }

  if (![...wanted].some((name) => name.startsWith('v2_list_arqs_keystone'))) return results;
  const ledger = await startLedgerServer(context.progress, { LEDGER_AUTH: 'keystone', LEDGER_KEYSTONE_URL: keystone.url, ...credentials });
  try {
    results.push(...(await measureLists(context, wanted, ledger, alice, project)));
  } finally {
    await ledger.stop();
  }
  return results;
}

async function measureLists(context: BenchContext, wanted: ReadonlySet<string>, ledger: LedgerServer, alice: string, project: string): Promise<Measurement[]> {
  const admin = ledger.token({ user: 'admin', project: 'admin', roles: ['admin'] });
  const setup = new JsonClient(ledger.url, 8);
  await reportFpgaHosts(ledger, setup, admin, HOSTS);
  await setup.expect(201, fpgaProfileCall(admin, PROFILE));
  await createArqs(setup, alice, PROFILE, PRESENT_ARQS);
  setup.close();
  const sameProject = ledger.token({ user: 'alice', project, roles: ['member'] });
  const list = (token: string) => () => ({ status: 200, method: 'GET', path: '/v2/accelerator_requests', token });
  // Alternated and run twice each, the better kept: whichever ran first would otherwise pay the JIT's warm-up.
  const best = { keystone: [] as Measurement[][], ledger: [] as Measurement[][] };
  for (let round = 0; round < 2; round++) {
    best.ledger.push(await measureHttpLatency(context, ledger, 'v2_list_arqs_keystone_ledger_token', list(sameProject)));
    best.keystone.push(await measureHttpLatency(context, ledger, 'v2_list_arqs_keystone', list(alice)));
  }
  const lowerP50 = (runs: Measurement[][]) => runs.reduce((better, run) => (run[0].value < better[0].value ? run : better));
  const [keystoneP50, keystoneP99] = lowerP50(best.keystone);
  const [ledgerP50] = lowerP50(best.ledger);
  return [keystoneP50, keystoneP99, ledgerP50].filter((measurement) => wanted.has(measurement.name));
}

/**
 * The first validation of each of `fresh` (a round trip to Keystone), then
 * one `authenticate` of a Keystone token the cache holds, averaged over
 * CACHED_CALLS.
 */
async function measureValidation(context: BenchContext, authUrl: string, token: string, fresh: readonly string[]): Promise<Measurement[]> {
  const session = new KeystoneSession({
    authUrl,
    credentials: { kind: 'password', username: 'ledger', password: 'ledger-pw', userDomainName: 'Default', projectName: 'service', projectDomainName: 'Default' },
  });
  const external = new KeystoneTokens({ session, serviceTokenRoles: ['service'], revalidateSeconds: 3600, cacheSize: 10_000, timeoutMs: 5_000 });
  const options = { codec: new TokenCodec('bench-only-secret-of-thirty-two-chars'), devNoAuth: false, external, acceptLedgerTokens: false };
  await session.token();
  const uncached: number[] = [];
  for (const freshToken of fresh) {
    const started = process.hrtime.bigint();
    await authenticate({ 'x-auth-token': freshToken }, options);
    uncached.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const uncachedP50 = percentile(uncached, 50);
  context.progress(`keystone_uncached_validation p50 ${uncachedP50.toFixed(3)} ms, p99 ${percentile(uncached, 99).toFixed(3)} ms (${fresh.length} tokens, each validated once)`);
  const headers = { 'x-auth-token': token };
  await authenticate(headers, options);
  const started = process.hrtime.bigint();
  for (let n = 0; n < CACHED_CALLS; n++) await authenticate(headers, options);
  const perCallMs = Number(process.hrtime.bigint() - started) / 1e6 / CACHED_CALLS;
  context.progress(`keystone_cached_validation ${(perCallMs * 1000).toFixed(2)} µs per authenticate of a cached Keystone token (${CACHED_CALLS} calls)`);
  return [
    { name: 'keystone_cached_validation_ms', value: perCallMs },
    { name: 'keystone_uncached_validation_p50_ms', value: uncachedP50 },
  ];
}
