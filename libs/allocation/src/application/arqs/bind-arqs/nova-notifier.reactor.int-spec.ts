import { type CommandContext, handleCommand } from '@ledger/eventstore';
import { fixedServiceAccess, SYSTEM_ACTOR } from '@ledger/kernel';
import { openSqliteSqlDatabase, ProcessorRuntime, ReactorRuntime, type SqlDatabase } from '@ledger/processing';
import { capturingLogger, eventually, InMemoryEventStore } from '@ledger/processing/testing';
import { arqProjection, ArqQueries } from '@ledger/projections/arqs';
import { type ArqCommand, arqDecider } from '../../../domain/arq.decider';
import { arqStream } from '../../../domain/arq.events';
import { HttpNovaEvents } from '../../../infrastructure/nova/http-nova-events';
import { type NovaSink, startNovaSink } from '../../../../../../test/support/nova-sink';
import { novaNotifierReactor } from './nova-notifier.reactor';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: 'nova-notifier' };
const uuid = (n: number) => `0196b3c2-0000-7000-8000-${String(n).padStart(12, '0')}`;
const INSTANCE_1 = '11111111-2222-4333-8444-000000000001';
const INSTANCE_2 = '11111111-2222-4333-8444-000000000002';
const AT = '2026-03-01T10:00:00.000Z';

const create = (n: number): ArqCommand => ({
  type: 'CreateArq', uuid: uuid(n), projectId: 'p1', deviceProfileUuid: uuid(500), deviceProfileName: 'fpga-dp', groupId: 0,
  resourceClass: 'FPGA', requiredTraits: [], forbiddenTraits: [], at: AT,
});
const startBind = (n: number, instanceUuid: string): ArqCommand => ({
  type: 'StartBind', uuid: uuid(n), hostname: 'compute-1', deviceRpUuid: uuid(600), instanceUuid, deviceUuid: uuid(700), deployableUuid: uuid(800), at: AT,
});
const complete = (n: number): ArqCommand => ({
  type: 'CompleteBind', uuid: uuid(n), at: AT,
  attachHandle: { uuid: uuid(900 + n), type: 'PCI', info: { domain: '0000', bus: '5e', device: '00', function: String(n) } },
});
const fail = (n: number): ArqCommand => ({ type: 'FailBind', uuid: uuid(n), code: 'INVENTORY.NO_FREE_ATTACH_HANDLE', reason: 'none free', at: AT });

describe('the Nova notifier reactor', () => {
  let store: InMemoryEventStore;
  let db: SqlDatabase;
  let nova: NovaSink;
  let projections: ProcessorRuntime;
  let reactors: ReactorRuntime;

  const runProjections = async (version: number) => {
    projections = new ProcessorRuntime({ store, db, processors: [{ ...arqProjection, version }], owner: 'test', logger: capturingLogger() });
    await projections.start();
  };
  const run = async (...commands: ArqCommand[]) => {
    for (const command of commands) await handleCommand(store, arqStream(command.uuid), arqDecider, command, context);
  };
  const positionOf = async (type: string, arq: number) => (await store.readStream(arqStream(uuid(arq)))).find((event) => event.type === type)!;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    nova = await startNovaSink();
    await runProjections(1);
    const arqs = new ArqQueries(db);
    reactors = new ReactorRuntime({
      store,
      db,
      owner: 'test',
      logger: capturingLogger(),
      unavailableBackoff: { initialMs: 1, maxMs: 20 },
      reactors: [
        novaNotifierReactor({
          nova: new HttpNovaEvents({ access: fixedServiceAccess(nova.url, 'nova-admin-token') }),
          store,
          // Always the runtime of the moment: the test replaces it to rebuild the projection.
          projectionsReached: (position) => projections.waitForPosition(position, { timeoutMs: 200 }),
          arqsOfInstance: async (instanceUuid) => (await arqs.list('all-projects', { instanceUuid })).map((arq) => arq.uuid),
        }),
      ],
    });
    await reactors.start();
    await eventually(async () => (await reactors.status())[0].state === 'live');
  });

  afterEach(async () => {
    await reactors.stop();
    await projections.stop();
    await nova.close();
    await db.close();
    await store.close();
  });

  it('tells Nova once per instance, when its last request resolves, only what a poll would show', async () => {
    await run(create(1), create(2), startBind(1, INSTANCE_1), startBind(2, INSTANCE_1), complete(1));
    const firstResolved = await store.headPosition();
    await reactors.waitForPosition(firstResolved);
    expect(nova.deliveries).toEqual([]);
    await run(fail(2));
    await reactors.waitForPosition(await store.headPosition());
    expect(nova.deliveries).toEqual([
      {
        requestId: `req-${(await positionOf('allocation.ArqBindFailed', 2)).id}`,
        events: [
          { name: 'accelerator-request-bound', server_uuid: INSTANCE_1, tag: uuid(1), status: 'completed' },
          { name: 'accelerator-request-bound', server_uuid: INSTANCE_1, tag: uuid(2), status: 'failed' },
        ],
      },
    ]);
    // Posted only once the projection showed both resolutions to a poll.
    expect((await new ArqQueries(db).list('all-projects', { instanceUuid: INSTANCE_1 })).map((arq) => arq.state)).toEqual(['Bound', 'BindFailed']);
  });

  it('keeps its pending notifications through Nova being down and a rebuild of the arqs projection, and delivers each exactly once', async () => {
    nova.respondWith(503);
    await run(create(1), create(2), create(3), startBind(1, INSTANCE_1), startBind(2, INSTANCE_1), startBind(3, INSTANCE_2), complete(1), complete(3), fail(2));
    await projections.waitForPosition(await store.headPosition());
    await eventually(async () => (await reactors.status())[0].state === 'unavailable');
    expect(nova.deliveries).toEqual([]);

    await projections.stop();
    await runProjections(2); // a new version: the arqs read model is emptied and rebuilt from position 0
    await projections.waitForPosition(await store.headPosition());
    nova.respondWith(200);
    await reactors.waitForPosition(await store.headPosition());

    const byInstance = nova.uniqueDeliveries().map((delivery) => ({ requestId: delivery.requestId, tags: delivery.events.map((event) => `${event.tag}:${event.status}`) }));
    expect(byInstance).toEqual([
      { requestId: `req-${(await positionOf('allocation.ArqBound', 3)).id}`, tags: [`${uuid(3)}:completed`] },
      { requestId: `req-${(await positionOf('allocation.ArqBindFailed', 2)).id}`, tags: [`${uuid(1)}:completed`, `${uuid(2)}:failed`] },
    ]);
    expect(nova.requests.every((request) => request.headers['x-auth-token'] === 'nova-admin-token')).toBe(true);
    expect(await reactors.parked('nova-notifier')).toEqual([]);
  });
});
