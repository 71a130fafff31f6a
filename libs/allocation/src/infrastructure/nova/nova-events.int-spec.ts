import { fixedServiceAccess } from '@ledger/kernel';
import { ReactorUnavailableError } from '@ledger/processing';
import { startNovaSink } from '../../../../../test/support/nova-sink';
import { InMemoryNovaEvents } from '../../testing/in-memory-nova-events';
import { novaEventsContract } from '../../testing/nova-events.contract';
import { HttpNovaEvents } from './http-nova-events';

novaEventsContract('HTTP adapter against a Nova-shaped server', async () => {
  const sink = await startNovaSink();
  return {
    nova: new HttpNovaEvents({ access: fixedServiceAccess(sink.url, 'nova-admin-token') }),
    respondWith: (status) => sink.respondWith(status),
    accepted: () =>
      sink.uniqueDeliveries().map((delivery) => ({
        key: delivery.requestId!.replace(/^req-/, ''),
        events: delivery.events.map((event) => ({ instanceUuid: event.server_uuid, arqUuid: event.tag, status: event.status as 'completed' | 'failed' })),
      })),
    dispose: () => sink.close(),
  };
});

novaEventsContract('in memory', async () => {
  const nova = new InMemoryNovaEvents();
  return {
    nova,
    respondWith: (status) => (nova.status = status),
    accepted: () => nova.deliveries.filter((delivery, index) => nova.deliveries.findIndex((other) => other.key === delivery.key) === index),
    dispose: async () => {},
  };
});

describe('HttpNovaEvents', () => {
  it("posts Cyborg's request: microversion 2.82, the token, the key as a request id, one event per request", async () => {
    const sink = await startNovaSink();
    try {
      const partial: unknown[][] = [];
      const nova = new HttpNovaEvents({ access: fixedServiceAccess(sink.url, 'nova-admin-token'), onPartial: (refused) => partial.push(refused) });
      await nova.acceleratorRequestsBound([{ instanceUuid: 'i-1', arqUuid: 'a-1', status: 'completed' }], { key: 'k-1' });
      expect(sink.requests[0].headers).toMatchObject({
        'x-auth-token': 'nova-admin-token',
        'x-openstack-nova-api-version': '2.82',
        'openstack-api-version': 'compute 2.82',
        'x-openstack-request-id': 'req-k-1',
      });
      expect(sink.requests[0].body).toEqual({ events: [{ name: 'accelerator-request-bound', server_uuid: 'i-1', tag: 'a-1', status: 'completed' }] });
      expect(partial).toEqual([]);
    } finally {
      await sink.close();
    }
  });

  it('reports a Nova that refuses connections as unavailable', async () => {
    const sink = await startNovaSink();
    await sink.close();
    const nova = new HttpNovaEvents({ access: fixedServiceAccess(sink.url), timeoutMs: 2_000 });
    const failure = nova.acceleratorRequestsBound([{ instanceUuid: 'i-1', arqUuid: 'a-1', status: 'failed' }], { key: 'k' });
    await expect(failure).rejects.toBeInstanceOf(ReactorUnavailableError);
    await expect(failure).rejects.toThrow(/Nova unreachable/);
  });
});
