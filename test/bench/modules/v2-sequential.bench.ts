import { randomUUID } from 'node:crypto';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { createArqs, type FpgaProvider, fpgaProfileCall, reportFpgaHosts } from '../fixtures/cyborg-v2-fleet';
import { ADMIN, novaOf } from '../fixtures/cyborg-v2-flow';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, onLedgerProcess } from '../http/ledger-server';
import { cpuBetween, readCpu } from '../measure/cpu-usage';
import { percentile } from '../measure/statistics';

const HOSTS = 8;
const HEARTBEAT_SECONDS = 5;
const PROFILE = 'seq-fpga';
const TENANT = 'tenant-seq';
/** The project whose requests are listed: exactly LISTED_ARQS of them, whatever the other cases created in TENANT. */
const LISTED_TENANT = 'tenant-list';
const LISTED_ARQS = 100;

/** One caller's operation, with untimed preparation and clean-up around the timed part. */
interface SequentialCase {
  readonly name: string;
  readonly prepare?: (n: number) => Promise<void>;
  readonly timed: (n: number) => Promise<void>;
  readonly cleanUp?: (n: number) => Promise<void>;
}

/**
 * Cyborg's v2 writes as Nova and an operator make them, one caller on one
 * keep-alive connection, against a compiled ledger on its `npm start`
 * defaults (the embedded store): how long one write takes from the request
 * to the answer, and a bind until a GET shows it Bound. Compare each with
 * `ceiling_insert_commit` of the same run: a write that needs one durable
 * append should cost about one commit plus the HTTP round trip.
 */
export const v2SequentialBench: BenchModule = {
  records: [
    'v2_seq_create_profile',
    'v2_seq_delete_profile',
    'v2_seq_create_arq',
    'v2_seq_bind_bound',
    'v2_seq_boot_path',
    'v2_seq_list_arqs_100',
  ].map((name) => ({ name: `${name}_p50_ms`, unit: 'ms', min: 0 })),
  run: (context, wanted) => onLedgerProcess(context, 'v2_seq_*', (ledger) => measureSequential(context, wanted, ledger)),
};

async function measureSequential(context: BenchContext, wanted: ReadonlySet<string>, ledger: LedgerServer): Promise<Measurement[]> {
  const admin = ledger.token(ADMIN);
  const nova = ledger.token(novaOf(TENANT));
  const lister = ledger.token(novaOf(LISTED_TENANT));
  const client = new JsonClient(ledger.url, 1);
  const providers = await reportFpgaHosts(ledger, client, admin, HOSTS);
  const agent = keepAgentAlive(ledger, providers[0].hostname);
  try {
    await client.expect(201, fpgaProfileCall(admin, PROFILE));
    const cases = sequentialCases(client, admin, nova, lister, providers[0]);
    const results: Measurement[] = [];
    for (const sequential of cases) {
      if (!wanted.has(`${sequential.name}_p50_ms`)) continue;
      if (sequential.name === 'v2_seq_list_arqs_100') await createArqs(client, lister, PROFILE, LISTED_ARQS);
      results.push(await ledger.profiled(sequential.name, () => measureCase(context, ledger, sequential, client)));
    }
    return results;
  } finally {
    agent.stop();
    client.close();
  }
}

/** The bound host's agent heartbeats (on a connection of its own) as a real one would, so the host is not lost while the module runs. */
function keepAgentAlive(ledger: LedgerServer, hostname: string): { stop(): void } {
  const agent = new JsonClient(ledger.url, 1);
  const token = ledger.token({ user: `agent:${hostname}`, project: null, roles: ['agent'], host: hostname });
  const beat = () => void agent.expect(200, { method: 'POST', path: `/api/v1/hosts/${hostname}/heartbeat`, token, body: { agentVersion: 'bench', intervalSeconds: HEARTBEAT_SECONDS, devices: [] } });
  const timer = setInterval(beat, HEARTBEAT_SECONDS * 1000);
  beat();
  return {
    stop: () => {
      clearInterval(timer);
      agent.close();
    },
  };
}

function sequentialCases(client: JsonClient, admin: string, nova: string, lister: string, provider: FpgaProvider): SequentialCase[] {
  const bindOps = (instance: string) => [
    { op: 'add', path: '/hostname', value: provider.hostname },
    { op: 'add', path: '/device_rp_uuid', value: provider.rpUuid },
    { op: 'add', path: '/instance_uuid', value: instance },
  ];
  const createArq = async (): Promise<string> => {
    const reply = await client.expect(201, { method: 'POST', path: '/v2/accelerator_requests', token: nova, body: { device_profile_name: PROFILE } });
    return (JSON.parse(reply.text) as { arqs: Array<{ uuid: string }> }).arqs[0].uuid;
  };
  const waitBound = async (uuid: string): Promise<void> => {
    for (;;) {
      const reply = await client.expect(200, { method: 'GET', path: `/v2/accelerator_requests/${uuid}`, token: nova });
      const state = (JSON.parse(reply.text) as { state: string }).state;
      if (state === 'Bound') return;
      if (state !== 'BindStarted') throw new Error(`accelerator request ${uuid} went ${state} instead of Bound`);
    }
  };
  const profileUuids: string[] = [];
  let arq = '';
  let instance = '';
  return [
    {
      name: 'v2_seq_create_profile',
      timed: async (n) => {
        const reply = await client.expect(201, fpgaProfileCall(admin, `seq-dp-${n}`));
        profileUuids.push((JSON.parse(reply.text) as { uuid: string }).uuid);
      },
    },
    {
      name: 'v2_seq_delete_profile',
      prepare: async (n) => {
        if (profileUuids.length > 0) return;
        const reply = await client.expect(201, fpgaProfileCall(admin, `seq-del-${n}`));
        profileUuids.push((JSON.parse(reply.text) as { uuid: string }).uuid);
      },
      timed: async () => {
        await client.expect(204, { method: 'DELETE', path: `/v2/device_profiles/${profileUuids.pop()}`, token: admin });
      },
    },
    { name: 'v2_seq_create_arq', timed: async () => void (await createArq()) },
    {
      name: 'v2_seq_bind_bound',
      prepare: async () => {
        arq = await createArq();
        instance = randomUUID();
      },
      timed: async () => {
        await client.expect(202, { method: 'PATCH', path: '/v2/accelerator_requests', token: nova, body: { [arq]: bindOps(instance) } });
        await waitBound(arq);
      },
      cleanUp: async () => void (await client.expect(204, { method: 'DELETE', path: `/v2/accelerator_requests?instance=${instance}`, token: nova })),
    },
    {
      name: 'v2_seq_boot_path',
      timed: async () => {
        const uuid = await createArq();
        const booted = randomUUID();
        await client.expect(202, { method: 'PATCH', path: '/v2/accelerator_requests', token: nova, body: { [uuid]: bindOps(booted) } });
        await waitBound(uuid);
        await client.expect(204, { method: 'DELETE', path: `/v2/accelerator_requests?instance=${booted}`, token: nova });
      },
    },
    {
      name: 'v2_seq_list_arqs_100',
      timed: async () => void (await client.expect(200, { method: 'GET', path: '/v2/accelerator_requests', token: lister })),
    },
  ];
}

/** p50 of the timed part over the run's HTTP sample count (a fifth more first as warm-up), with the ledger's CPU per call in the progress line. */
async function measureCase(context: BenchContext, ledger: LedgerServer, sequential: SequentialCase, client: JsonClient): Promise<Measurement> {
  const samples = context.sizes.httpSamples;
  const warmup = Math.ceil(samples / 5);
  const latencies: number[] = [];
  let cpuSeconds = 0;
  for (let n = 0; n < warmup + samples; n++) {
    await sequential.prepare?.(n);
    const cpuBefore = readCpu(ledger.cpuSeconds);
    const started = performance.now();
    await sequential.timed(n);
    const elapsed = performance.now() - started;
    if (n >= warmup) {
      latencies.push(elapsed);
      cpuSeconds += cpuBetween(cpuBefore, readCpu(ledger.cpuSeconds)).ledger;
    }
    await sequential.cleanUp?.(n);
  }
  if (client.connectionsOpened !== 1) throw new Error(`${sequential.name} used ${client.connectionsOpened} connections instead of one`);
  const p50 = percentile(latencies, 50);
  context.progress(
    `${sequential.name} p50 ${p50.toFixed(3)} ms, p99 ${percentile(latencies, 99).toFixed(3)} ms (${samples} sequential calls, one connection);` +
      ` ledger CPU ${((cpuSeconds * 1000) / samples).toFixed(3)} ms per call`,
  );
  return { name: `${sequential.name}_p50_ms`, value: p50 };
}
