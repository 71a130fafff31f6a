import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { eventStoreOptions, loadLedgerConfig, readModelOptions } from '@ledger/config';
import { checkpointsTopic, contextTopic, eventTopic, LEDGER_HEADERS, parseEventEnvelope } from '@ledger/contracts';
import { openEventStore, readCheckpointLines, type RecordedEvent } from '@ledger/eventstore';
import type { ReactorStatus } from '@ledger/processing';
import { eventually } from '@ledger/processing/testing';
import { type InventorySnapshot, snapshotInventory } from '@ledger/projections/inventory';
import { openReadModels } from '../../apps/ledger/src/infrastructure/open-read-models';
import { hostReportBody, hostname } from '../support/fleet';
import { type KafkaMock, kafkaMockUnavailable, startKafkaMock } from '../support/kafka-mock';
import { readTopics } from '../support/kafka-topics';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';
import { ledgerctl } from '../support/ledgerctl-process';
import { describeWithService } from '../support/services';

const ROOT = join(__dirname, '..', '..');
const SECRET = 'kafka-relay-test-signing-key-0123456789';
const PREFIX = 'e2e-ledger';
const WRITERS = 8;
/** Well below the producer's 10 s request timeout, so a frozen broker shows as a stall before the send fails. */
const STALLED_AFTER_MS = 1000;

interface ConsumerState {
  readonly applied: number;
  readonly duplicatesDropped: number;
  readonly highestPosition: number;
  readonly inventory: InventorySnapshot;
}

/**
 * The relay against a real Kafka protocol broker (librdkafka's mock
 * cluster), with the ledger and the example consumer each in their own
 * process: one ledger history, checked case after case.
 */
describeWithService('Kafka (librdkafka mock cluster via kcat)', kafkaMockUnavailable())('the Kafka relay, end to end', () => {
  let kafka: KafkaMock;
  let dataDir: string;
  let env: Record<string, string>;
  let ledger: LedgerProcess | undefined;
  let consumer: ChildProcess | undefined;
  let consumerOutput = '';
  const admin = new TokenCodec(SECRET).issue({ user: 'admin', project: 'admin', roles: ['admin'] });

  beforeAll(async () => {
    kafka = await startKafkaMock();
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-kafka-'));
    env = {
      LEDGER_DATA_DIR: dataDir,
      LEDGER_AUTH_SECRET: SECRET,
      LEDGER_PROCESSOR_LEASE_MS: '2000',
      LEDGER_CHECKPOINT_SECONDS: '1',
      LEDGER_REACTOR_STALLED_AFTER_MS: String(STALLED_AFTER_MS),
      LEDGER_KAFKA_BROKERS: kafka.brokers.join(','),
      LEDGER_KAFKA_TOPIC_PREFIX: PREFIX,
    };
    ledger = await startLedgerProcess(env);
  });
  afterAll(async () => {
    consumer?.kill('SIGKILL');
    await ledger?.kill('SIGKILL');
    await kafka?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const report = async (index: number, generation: number): Promise<boolean> => {
    const response = await fetch(`${ledger!.url}/api/v1/hosts/${hostname(index)}/report`, {
      method: 'PUT',
      headers: { 'x-auth-token': admin, 'content-type': 'application/json' },
      body: JSON.stringify(hostReportBody(index, generation)),
    }).catch(() => undefined);
    if (response && response.status !== 200) throw new Error(`report refused: ${response.status} ${await response.text()}`);
    return response !== undefined;
  };
  const relayStatus = async () => {
    const response = await fetch(`${ledger!.url}/api/v1/reactors`, { headers: { 'x-auth-token': admin } });
    const { items } = (await response.json()) as { items: ReactorStatus[] };
    return items.find((reactor) => reactor.name === 'kafka-relay')!;
  };
  const relayCaughtUp = async (): Promise<void> => {
    const { headPosition } = (await (await fetch(`${ledger!.url}/readyz`)).json()) as { headPosition: number };
    await eventually(async () => (await relayStatus()).position >= headPosition);
  };
  const loggedEvents = async (): Promise<RecordedEvent[]> => {
    const store = await openEventStore(eventStoreOptions(loadLedgerConfig(env)));
    try {
      const events: RecordedEvent[] = [];
      for (let after = 0; ; ) {
        const batch = await store.readAll({ after, max: 5000 });
        if (batch.events.length === 0) return events;
        events.push(...batch.events);
        after = batch.events.at(-1)!.position;
      }
    } finally {
      await store.close();
    }
  };
  /** Every message of the event topics until each logged event arrived at least once. */
  const publishedEvents = async (logged: readonly RecordedEvent[]) => {
    const ids = new Set(logged.map((event) => event.id));
    const topics = [...new Set(logged.map((event) => eventTopic(PREFIX, event.type)))];
    const messages = await readTopics(kafka.brokers, topics, (received) => new Set(received.map((message) => message.headers[LEDGER_HEADERS.eventId])).size >= ids.size);
    return messages;
  };
  const consumerState = (): ConsumerState | undefined => {
    const file = join(dataDir, 'consumer-state.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConsumerState) : undefined;
  };

  it("publishes every event to its context's topic, keyed by stream, in order per stream, with the routing headers", async () => {
    for (let index = 0; index < 20; index++) await report(index, 0);
    await relayCaughtUp();
    const logged = await loggedEvents();
    const messages = await publishedEvents(logged);
    expect(messages).toHaveLength(logged.length); // no crash yet: nothing sent twice
    const byId = new Map(messages.map((message) => [message.headers[LEDGER_HEADERS.eventId], message]));
    for (const event of logged) {
      const message = byId.get(event.id)!;
      expect(message.topic).toBe(eventTopic(PREFIX, event.type));
      expect(message.key).toBe(event.stream);
      expect(parseEventEnvelope(message.value)).toEqual(event);
      expect(message.headers).toEqual({
        [LEDGER_HEADERS.eventId]: event.id,
        [LEDGER_HEADERS.eventType]: event.type,
        [LEDGER_HEADERS.schemaVersion]: String(event.metadata.schemaVersion),
        [LEDGER_HEADERS.correlationId]: event.metadata.correlationId,
      });
    }
    expectStreamOrder(messages.map((message) => parseEventEnvelope(message.value)));
    expect(logged.map((event) => eventTopic(PREFIX, event.type))).toContain(contextTopic(PREFIX, 'inventory'));
  });

  it('shows the relay stalled, in the reactors API and /readyz, once a send has gone unanswered past the bound, and live again once the broker answers', async () => {
    await kafka.freeze();
    try {
      await report(40, 0);
      await eventually(async () => (await relayStatus()).state === 'stalled', 8000);
      const stalled = await relayStatus();
      expect(stalled).toMatchObject({ state: 'stalled', stalled: { position: stalled.position + 1 } });
      expect(stalled.lag).toBeGreaterThan(0);
      const ready = (await (await fetch(`${ledger!.url}/readyz`)).json()) as { checks: { reactors: { detail: string } } };
      expect(ready.checks.reactors.detail).toContain(`kafka-relay: a call outstanding since ${stalled.stalled!.since}`);
    } finally {
      kafka.thaw();
    }
    await relayCaughtUp();
    await eventually(async () => (await relayStatus()).state === 'live');
  });

  it('loses nothing when the relay is killed mid-stream and restarted, and consumers see each event once after dedupe', async () => {
    consumer = spawn(process.execPath, [join(ROOT, 'scripts', 'run.js'), 'kafka-consumer-example'], {
      cwd: ROOT,
      env: { ...process.env, ...env, EXAMPLE_CONSUMER_DB: join(dataDir, 'consumer.sqlite'), EXAMPLE_CONSUMER_STATE_FILE: join(dataDir, 'consumer-state.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    consumer.stdout!.on('data', (chunk) => (consumerOutput += chunk));
    consumer.stderr!.on('data', (chunk) => (consumerOutput += chunk));
    const before = (await relayStatus()).position;
    let writing = true;
    const writers = Array.from({ length: WRITERS }, async (_, writer) => {
      for (let generation = 1; writing; generation++) if (!(await report(100 + writer * 10 + (generation % 10), generation))) return;
    });
    await eventually(async () => (await relayStatus()).position > before + 200);
    await ledger!.kill('SIGKILL');
    writing = false;
    await Promise.all(writers);

    ledger = await startLedgerProcess(env);
    for (let index = 0; index < 5; index++) await report(index, 7);
    await relayCaughtUp();
    const logged = await loggedEvents();
    const messages = await publishedEvents(logged);
    const envelopes = messages.map((message) => parseEventEnvelope(message.value));
    const deduped = new Map(envelopes.map((envelope) => [envelope.id, envelope]));
    expect([...deduped.keys()].sort()).toEqual(logged.map((event) => event.id).sort());
    expectStreamOrder(envelopes);
  });

  it("lets the example consumer, in its own process, rebuild an inventory equal to the ledger's projection", async () => {
    const logged = await loggedEvents();
    const inventoryEvents = logged.filter((event) => eventTopic(PREFIX, event.type) === contextTopic(PREFIX, 'inventory'));
    await eventually(() => consumerState()?.applied === inventoryEvents.length, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; consumer state ${JSON.stringify({ ...consumerState(), inventory: undefined })}, output:\n${consumerOutput}`);
    });
    await ledger!.kill('SIGTERM');
    const readModels = await openReadModels(readModelOptions(loadLedgerConfig(env)));
    try {
      expect(consumerState()!.inventory).toEqual(JSON.parse(JSON.stringify(await snapshotInventory(readModels))));
    } finally {
      await readModels.close();
    }
    expect(consumerState()!.highestPosition).toBe(inventoryEvents.at(-1)!.position);
    expect(consumerState()!.inventory.inv_hosts.length).toBeGreaterThanOrEqual(20);
  });

  it('publishes the signed head checkpoints, which `ledgerctl audit verify --checkpoints` checks the log against', async () => {
    const signed = readCheckpointLines(join(dataDir, 'checkpoints.jsonl'));
    expect(signed.length).toBeGreaterThan(0);
    const messages = await readTopics(kafka.brokers, [checkpointsTopic(PREFIX)], (received) => received.some((message) => message.value === JSON.stringify(signed.at(-1))));
    const copy = join(dataDir, 'checkpoints-from-kafka.jsonl');
    writeFileSync(copy, messages.map((message) => `${message.value}\n`).join(''));
    const verdict = await ledgerctl(env, 'audit', 'verify', '--checkpoints', copy, '--json', '--quiet');
    expect(verdict.code).toBe(0);
    expect(JSON.parse(verdict.stdout)).toMatchObject({ ok: true, anchor: { position: signed.at(-1)!.position } });
  });

  it('goes on recording while Kafka is down, the relay shown unavailable and backing off', async () => {
    ledger = await startLedgerProcess(env);
    await kafka.stop();
    for (let index = 0; index < 5; index++) expect(await report(index, 8)).toBe(true);
    await eventually(async () => (await relayStatus()).state === 'unavailable');
    const ready = await fetch(`${ledger.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: { reactors: { detail: string } } }).checks.reactors.detail).toContain('kafka-relay');
  });
});

/** Each stream's events, first deliveries only, come in version order. */
function expectStreamOrder(envelopes: readonly { id: string; stream: string; version: number }[]): void {
  const seen = new Set<string>();
  const lastVersion = new Map<string, number>();
  for (const envelope of envelopes) {
    if (seen.has(envelope.id)) continue;
    seen.add(envelope.id);
    expect(envelope.version).toBeGreaterThan(lastVersion.get(envelope.stream) ?? 0);
    lastVersion.set(envelope.stream, envelope.version);
  }
}
