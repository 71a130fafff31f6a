import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TokenCodec } from '@ledger/auth';
import { hostReportBody } from '../support/fleet';
import { type LedgerProcess, startLedgerProcess } from '../support/ledger-process';
import { type NovaSink, startNovaSink } from '../support/nova-sink';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver';

const SECRET = 'traces-test-signing-key-0123456789abcdef';
const codec = new TokenCodec(SECRET);
const admin = codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] });
const agent = codec.issue({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
const nova = codec.issue({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
/** The trace Nova's request is part of, as its own tracing would send it. */
const NOVA_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const NOVA_SPAN = '00f067aa0ba902b7';
const CORRELATION = '0193c0de-0000-7000-8000-00000000c0de';
const INSTANCE = '11111111-2222-4333-8444-555555555555';
const SDK_PACKAGES = ['@opentelemetry/sdk-trace-node', '@opentelemetry/sdk-trace-base', '@opentelemetry/exporter-trace-otlp-http'];
const PRELOAD = join(__dirname, '..', 'support', 'loaded-packages.preload.js');
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

/** Nova's create → bind of one request on compute-1's FPGA, the bind sent with `headers`. */
async function bindOneRequest(ledger: LedgerProcess, headers: Record<string, string>): Promise<Response> {
  const call = (method: string, path: string, token: string, body?: unknown, extra: Record<string, string> = {}) =>
    fetch(`${ledger.url}${path}`, {
      method,
      headers: { 'x-auth-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const report = await call('PUT', '/api/v1/hosts/compute-1/report', agent, hostReportBody(1, 0));
  expect(report.status).toBe(200);
  const { position } = (await report.json()) as { position: number };
  expect((await call('POST', '/v2/device_profiles', admin, [{ name: 'fpga-dp', groups: [{ 'resources:FPGA': '1' }] }])).status).toBe(201);
  const created = (await (await call('POST', '/v2/accelerator_requests', nova, { device_profile_name: 'fpga-dp' })).json()) as { arqs: { uuid: string }[] };
  const deployables = await call('GET', '/api/v1/deployables?hostname=compute-1', admin, undefined, { 'x-ledger-min-position': String(position) });
  const { items } = (await deployables.json()) as { items: { resourceClass: string; rpUuid: string }[] };
  const rp = items.find((deployable) => deployable.resourceClass === 'FPGA')?.rpUuid;
  const patch = [
    { op: 'add', path: '/hostname', value: 'compute-1' },
    { op: 'add', path: '/device_rp_uuid', value: rp },
    { op: 'add', path: '/instance_uuid', value: INSTANCE },
  ];
  return fetch(`${ledger.url}/v2/accelerator_requests`, {
    method: 'PATCH',
    headers: { 'x-auth-token': nova, 'content-type': 'application/json', ...headers },
    body: inTwoPackets(JSON.stringify({ [created.arqs[0].uuid]: patch })),
    duplex: 'half',
  } as RequestInit);
}

/**
 * A body sent in two writes, the second once the first has gone: the ledger
 * reads the rest of it from the socket after its span started, as with any
 * body larger than a packet, and must keep the span for the handler anyway.
 */
function inTwoPackets(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent === 0) {
        controller.enqueue(bytes.subarray(0, 10));
        sent = 10;
        return;
      }
      await delay(50);
      controller.enqueue(bytes.subarray(sent));
      controller.close();
    },
  });
}

/** The npm packages the process loaded, as the preload recorded them. */
const loadedPackages = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');

/** Whether `span` descends from `ancestor` among `spans`. */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan, spans: readonly ReceivedSpan[]): boolean {
  for (let parent = spans.find((s) => s.spanId === span.parentSpanId); parent; parent = spans.find((s) => s.spanId === parent?.parentSpanId)) {
    if (parent.spanId === ancestor.spanId) return true;
  }
  return false;
}

describe('traces: OpenTelemetry spans over OTLP, only when an endpoint is set', () => {
  let dataDir: string;
  let receiver: OtlpReceiver;
  let novaSink: NovaSink;
  let ledger: LedgerProcess | undefined;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-traces-'));
    receiver = await startOtlpReceiver();
    novaSink = await startNovaSink();
  });
  afterEach(async () => {
    await ledger?.kill('SIGTERM');
    ledger = undefined;
    await receiver.close();
    await novaSink.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const packagesFile = () => join(dataDir, 'loaded-packages.txt');
  /** A ledger process with `env` that tells the Nova sink, and records the packages it loads (`loadedPackages`). */
  const startLedger = async (env: Record<string, string>): Promise<LedgerProcess> => {
    ledger = await startLedgerProcess({
      LEDGER_DATA_DIR: join(dataDir, 'data'),
      LEDGER_AUTH_SECRET: SECRET,
      LEDGER_NOVA_URL: novaSink.url,
      NODE_OPTIONS: `--require ${PRELOAD}`,
      LEDGER_TEST_LOADED_PACKAGES: packagesFile(),
      ...env,
    });
    return ledger;
  };

  it("continues Nova's trace through the bind's command, appends and reactor to the call that tells Nova, and links the projections to it", async () => {
    const traced = await startLedger({
      LEDGER_INSTANCE_ID: 'ledger-traced-1',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Batches leave every 100 ms instead of every 5 s: the test waits for the spans, not for the timer.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    const bind = await bindOneRequest(traced, { traceparent: `00-${NOVA_TRACE}-${NOVA_SPAN}-01`, 'x-correlation-id': CORRELATION });
    expect(bind.status).toBe(202);
    expect(bind.headers.get('traceresponse')).toMatch(new RegExp(`^00-${NOVA_TRACE}-[0-9a-f]{16}-01$`));

    await novaSink.waitFor((events) => events.some((event) => event.server_uuid === INSTANCE));
    const toNova = novaSink.requests.find((request) => (request.body as { events?: { server_uuid: string }[] }).events?.[0]?.server_uuid === INSTANCE);
    const sentTraceparent = String(toNova?.headers.traceparent);
    expect(sentTraceparent).toMatch(new RegExp(`^00-${NOVA_TRACE}-[0-9a-f]{16}-01$`));
    const novaCallSpanId = sentTraceparent.split('-')[2];

    const spans = await receiver.waitFor((received) => received.some((span) => span.spanId === novaCallSpanId) && received.some((span) => span.links.some((link) => link.traceId === NOVA_TRACE)));
    const inTrace = spans.filter((span) => span.traceId === NOVA_TRACE);
    const server = inTrace.find((span) => span.name === 'PATCH /v2/accelerator_requests');
    expect(server).toMatchObject({
      kind: 2,
      parentSpanId: NOVA_SPAN,
      attributes: expect.objectContaining({ 'http.route': '/v2/accelerator_requests', 'http.request.method': 'PATCH', 'http.response.status_code': 202, 'ledger.correlation_id': CORRELATION }),
      resource: expect.objectContaining({ 'service.name': 'accelerator-ledger', 'service.version': PACKAGE_VERSION, 'service.instance.id': 'ledger-traced-1', 'ledger.roles': ['api', 'conductor', 'processors'] }),
    });
    expect(bind.headers.get('traceresponse')).toBe(`00-${NOVA_TRACE}-${server?.spanId}-01`);
    const command = inTrace.find((span) => span.name === 'command BindArqsCommand');
    expect(command && server && descendsFrom(command, server, spans)).toBe(true);
    expect(command?.attributes['ledger.correlation_id']).toBe(CORRELATION);
    // A bind with nothing to program is one atomic append to the request and the device, a child of the command.
    const append = inTrace.find((span) => span.name === 'append arq,device' && command && descendsFrom(span, command, spans));
    expect(append?.attributes).toMatchObject({
      'db.system.name': 'sqlite',
      'db.operation.name': 'appendMany',
      'ledger.streams': [expect.stringMatching(/^arq-/), expect.stringMatching(/^device-/)],
      'ledger.event_types': ['allocation.ArqBindStarted', 'allocation.ArqBound', 'inventory.AttachHandleClaimed'],
    });

    // The Nova notifier acts on the bound event in the request's trace, under the append that recorded it.
    const novaCall = inTrace.find((span) => span.spanId === novaCallSpanId);
    expect(novaCall).toMatchObject({ name: 'POST Nova', kind: 3, attributes: expect.objectContaining({ 'http.response.status_code': 200, 'url.full': `${novaSink.url}/os-server-external-events` }) });
    const react = inTrace.find((span) => span.spanId === novaCall?.parentSpanId);
    expect(react).toMatchObject({ name: 'react nova-notifier', kind: 5, attributes: expect.objectContaining({ 'ledger.event_type': 'allocation.ArqBound' }) });
    const recordedBy = inTrace.find((span) => span.spanId === react?.parentSpanId);
    expect(recordedBy?.name).toMatch(/^append /);
    expect(recordedBy && server && descendsFrom(recordedBy, server, spans)).toBe(true);

    // Projections apply batches mixing requests: their spans start traces of their own, linked to the appends.
    const projected = spans.find((span) => span.name === 'project arqs' && span.links.some((link) => link.traceId === NOVA_TRACE));
    expect(projected).toMatchObject({ parentSpanId: '', attributes: expect.objectContaining({ 'ledger.processor': 'arqs' }) });
    expect(receiver.refused).toEqual([]);
    expect(loadedPackages(packagesFile())).toEqual(expect.arrayContaining(SDK_PACKAGES.map((name) => expect.stringMatching(new RegExp(`/node_modules/${name}$`)))));
  });

  it('loads no tracing SDK and answers without trace headers when no endpoint is set', async () => {
    const untraced = await startLedger({});
    const bind = await bindOneRequest(untraced, { traceparent: `00-${NOVA_TRACE}-${NOVA_SPAN}-01` });
    expect(bind.status).toBe(202);
    expect(bind.headers.get('traceresponse')).toBeNull();
    await novaSink.waitFor((events) => events.some((event) => event.server_uuid === INSTANCE));
    expect(novaSink.requests.every((request) => request.headers.traceparent === undefined)).toBe(true);
    const packages = loadedPackages(packagesFile());
    expect(packages).toEqual(expect.arrayContaining([expect.stringMatching(/\/node_modules\/fastify$/)]));
    expect(packages.filter((path) => SDK_PACKAGES.some((name) => path.endsWith(`/node_modules/${name}`)))).toEqual([]);
  });
});
