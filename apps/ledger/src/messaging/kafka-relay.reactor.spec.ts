import { LEDGER_HEADERS } from '@ledger/contracts';
import type { RecordedEvent } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { MessageRejectedError } from '@ledger/messaging';
import { InMemoryMessageBroker } from '@ledger/messaging/testing';
import { ReactorRejectedError, ReactorUnavailableError } from '@ledger/processing';
import { kafkaRelayReactor } from './kafka-relay.reactor';

const recorded = (position: number, stream: string, type: string): RecordedEvent => ({
  id: `event-${position}`,
  type,
  stream,
  version: 1,
  position,
  recordedAt: '2026-03-01T00:00:00.000Z',
  data: { position },
  metadata: { correlationId: `request-${position}`, causationId: null, actor: SYSTEM_ACTOR, schemaVersion: 2 },
  prevHash: '0'.repeat(64),
  hash: 'f'.repeat(64),
});
const context = { attempt: 1, signal: new AbortController().signal };

describe('kafkaRelayReactor', () => {
  it("sends each event to its context's topic, keyed by stream, with the envelope and the routing headers", async () => {
    const broker = new InMemoryMessageBroker();
    const relay = kafkaRelayReactor({ publisher: broker, topicPrefix: 'test-ledger' });
    const events = [recorded(1, 'host-compute-1', 'inventory.HostRegistered'), recorded(2, 'quota-p1', 'quota.QuotaSet')];
    await relay.reactBatch!(events, context);
    expect(broker.published.map(({ topic, key }) => [topic, key])).toEqual([
      ['test-ledger.inventory.v1', 'host-compute-1'],
      ['test-ledger.quota.v1', 'quota-p1'],
    ]);
    expect(JSON.parse(broker.published[0].value)).toEqual(events[0]);
    expect(broker.published[0].headers).toEqual({
      [LEDGER_HEADERS.eventId]: 'event-1',
      [LEDGER_HEADERS.eventType]: 'inventory.HostRegistered',
      [LEDGER_HEADERS.schemaVersion]: '2',
      [LEDGER_HEADERS.correlationId]: 'request-1',
    });
  });

  it('tells the runtime Kafka is down (retried, never parked) or refused the batch (looked through one by one)', async () => {
    const broker = new InMemoryMessageBroker();
    broker.down = true;
    const relay = kafkaRelayReactor({ publisher: broker, topicPrefix: 'test-ledger' });
    await expect(relay.react(recorded(1, 'host-a', 'inventory.HostRegistered'), context)).rejects.toBeInstanceOf(ReactorUnavailableError);
    const refusing = kafkaRelayReactor({ publisher: { publish: () => Promise.reject(new MessageRejectedError('too large')), close: async () => {} }, topicPrefix: 'x' });
    await expect(refusing.react(recorded(1, 'host-a', 'inventory.HostRegistered'), context)).rejects.toBeInstanceOf(ReactorRejectedError);
  });
});
