import { eventTopic, LEDGER_HEADERS } from '@ledger/contracts';
import { KafkaMessagePublisher } from '@ledger/messaging';
import { ReactorRuntime, type ReactorStatus, type SqlDatabase } from '@ledger/processing';
import { appendSpread, capturingLogger, eventually, InMemoryEventStore, sqliteTestDatabases, type TestDatabases } from '@ledger/processing/testing';
import { type KafkaMock, kafkaMockUnavailable, startKafkaMock } from '../../../../test/support/kafka-mock';
import { readTopics } from '../../../../test/support/kafka-topics';
import { describeWithService } from '../../../../test/support/services';
import { kafkaRelayReactor } from './kafka-relay.reactor';

const PREFIX = 'relay-outage';
const TYPE = 'inventory.DeviceChanged';
const STALLED_AFTER_MS = 1000;

/**
 * The relay on the reactor runtime against a broker that stops answering
 * (librdkafka's mock cluster, its process SIGSTOPped): what an operator sees
 * meanwhile, and how many copies of an event consumers get once it is back.
 */
describeWithService('Kafka (librdkafka mock cluster via kcat)', kafkaMockUnavailable())('the Kafka relay while its broker stops answering', () => {
  let kafka: KafkaMock;
  let databases: TestDatabases;
  let db: SqlDatabase;
  let store: InMemoryEventStore;
  let publisher: KafkaMessagePublisher;
  let runtime: ReactorRuntime;
  let count = 0;

  beforeAll(() => {
    databases = sqliteTestDatabases();
  });
  afterAll(() => databases.dispose());
  beforeEach(async () => {
    kafka = await startKafkaMock();
    store = new InMemoryEventStore();
    db = await databases.open(`relay_${++count}`);
    publisher = new KafkaMessagePublisher({ brokers: kafka.brokers, clientId: 'relay-outage' });
    runtime = new ReactorRuntime({
      store,
      db,
      owner: 'test',
      reactors: [kafkaRelayReactor({ publisher, topicPrefix: PREFIX })],
      stalledAfterMs: STALLED_AFTER_MS,
      logger: capturingLogger(),
    });
    await runtime.start();
    // Connected, and the topic created: what follows is about a broker that was answering.
    await runtime.waitForPosition(await appendSpread(store, { count: 1, streams: 1, type: TYPE }));
  });
  afterEach(async () => {
    kafka.thaw();
    await runtime.stop();
    await publisher.close();
    await kafka.stop();
  });

  const relay = async (): Promise<ReactorStatus> => (await runtime.status())[0];

  it('shows the relay stalled once a send has been outstanding past the bound, and live again when the broker answers', async () => {
    await kafka.freeze();
    const head = await appendSpread(store, { count: 3, streams: 1, type: TYPE, batch: 3 });
    // Well inside the producer's request timeout: the send is still outstanding, not yet failed.
    await eventually(async () => (await relay()).state === 'stalled', 8000);
    expect(await relay()).toMatchObject({ state: 'stalled', position: 1, lag: 3, stalled: { position: 2, events: 3 } });
    kafka.thaw();
    await runtime.waitForPosition(head);
    await eventually(async () => (await relay()).state === 'live');
    expect((await relay()).stalled).toBeUndefined();
  });

  it('delivers an event at most twice across an outage, however many attempts the relay made meanwhile', async () => {
    await kafka.freeze();
    const head = await appendSpread(store, { count: 3, streams: 1, type: TYPE, batch: 3 });
    // The first send timed out (its request reached the frozen broker) and the next attempt failed too.
    await eventually(async () => (await relay()).failures >= 2, 150_000);
    kafka.thaw();
    await runtime.waitForPosition(head, { timeoutMs: 60_000 });
    // One more event on the same stream (so the same partition), sent after every copy was acknowledged: once it is read, every copy has been.
    const last = await appendSpread(store, { count: 1, streams: 1, type: TYPE });
    await runtime.waitForPosition(last);
    const events = (await store.readAll({ max: 10 })).events;
    const lastId = events.at(-1)!.id;
    const messages = await readTopics(kafka.brokers, [eventTopic(PREFIX, TYPE)], (received) => received.some((message) => message.headers[LEDGER_HEADERS.eventId] === lastId));
    const copies = events.map((event) => messages.filter((message) => message.headers[LEDGER_HEADERS.eventId] === event.id).length);
    expect(copies[0]).toBe(1);
    expect(Math.max(...copies)).toBeLessThanOrEqual(2);
  }, 240_000);
});
