import { type ArqCommand, arqDecider, arqStream } from '@ledger/allocation';
import { type CommandContext, handleCommand, type RecordedEvent } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { applyProjectionBatches, type Batches, everyBatchTwice, inBatchesOf, InMemoryEventStore, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { ArqQueries } from './arq.queries';
import { arqProjection } from './arq.projection';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: 'arq-history' };
const uuid = (n: number) => `0196b3c2-0000-7000-8000-${String(n).padStart(12, '0')}`;
const INSTANCE_1 = '11111111-2222-4333-8444-000000000001';
const INSTANCE_2 = '11111111-2222-4333-8444-000000000002';
const handle = (n: number) => ({ uuid: uuid(900 + n), type: 'PCI' as const, info: { domain: '0000', bus: '5e', device: '00', function: String(n) } });

function create(n: number, project = 'p1'): ArqCommand {
  return {
    type: 'CreateArq', uuid: uuid(n), projectId: project, deviceProfileUuid: uuid(500), deviceProfileName: 'fpga-dp', groupId: 0,
    resourceClass: 'FPGA', requiredTraits: [], forbiddenTraits: [], at: '2026-03-01T10:00:00.000Z',
  };
}
/** Each bind's workflow id; request 2's bind was recorded before binds ran as workflows, and has none. */
const bindIdOf = (n: number) => (n === 2 ? {} : { bindId: uuid(1000 + n) });
const startBind = (n: number, instanceUuid: string): ArqCommand => ({
  type: 'StartBind', uuid: uuid(n), hostname: 'compute-1', deviceRpUuid: uuid(600), instanceUuid, deviceUuid: uuid(700), deployableUuid: uuid(800),
  ...bindIdOf(n), at: '2026-03-01T10:00:01.000Z',
});
const complete = (n: number): ArqCommand => ({ type: 'CompleteBind', uuid: uuid(n), attachHandle: handle(n), at: '2026-03-01T10:00:02.000Z' });
const fail = (n: number): ArqCommand => ({ type: 'FailBind', uuid: uuid(n), code: 'INVENTORY.NO_FREE_ATTACH_HANDLE', reason: 'none free', at: '2026-03-01T10:00:02.000Z' });

/** Instance 1 gets two requests (one bound, one failed), instance 2 one that is bound, unbound and deleted; another project has one. */
async function history(): Promise<RecordedEvent[]> {
  const store = new InMemoryEventStore(() => new Date());
  const commands: ArqCommand[] = [
    create(1), create(2), create(3), create(4, 'p2'),
    startBind(1, INSTANCE_1), startBind(2, INSTANCE_1), complete(1), fail(2),
    startBind(3, INSTANCE_2), complete(3), { type: 'UnbindArq', uuid: uuid(3), at: '2026-03-01T10:00:03.000Z' },
    { type: 'DeleteArq', uuid: uuid(3), mayDeleteBound: false, at: '2026-03-01T10:00:04.000Z' },
  ];
  for (const command of commands) await handleCommand(store, arqStream(command.uuid), arqDecider, command, context);
  return (await store.readAll({ max: 1000 })).events;
}

async function build(batches: Batches) {
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  try {
    await applyProjectionBatches(db, arqProjection, batches);
    return await db.all('SELECT * FROM arq_requests ORDER BY uuid');
  } finally {
    await db.close();
  }
}

describe('arqProjection', () => {
  let events: RecordedEvent[];
  let db: SqlDatabase;

  beforeAll(async () => {
    events = await history();
  });
  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
  });
  afterEach(() => db.close());

  it('serves each project its own requests, by instance, with what Nova reads', async () => {
    await applyProjectionBatches(db, arqProjection, oneBatch(events));
    const queries = new ArqQueries(db);
    expect((await queries.list({ project: 'p1' })).map((arq) => [arq.uuid, arq.state])).toEqual([
      [uuid(1), 'Bound'],
      [uuid(2), 'BindFailed'],
    ]);
    expect((await queries.list('all-projects')).map((arq) => arq.uuid)).toEqual([uuid(1), uuid(2), uuid(4)]);
    expect(await queries.get(uuid(4), { project: 'p1' })).toBeUndefined();
    expect(await queries.get(uuid(1), { project: 'p1' })).toMatchObject({
      instanceUuid: INSTANCE_1,
      attachHandleType: 'PCI',
      attachHandleInfo: { domain: '0000', bus: '5e', device: '00', function: '1' },
    });
    expect(await queries.countLiveByProfile(uuid(500))).toBe(3);
  });

  it('names the workflow of each request’s latest bind, so an operator gets from the request to it', async () => {
    await applyProjectionBatches(db, arqProjection, oneBatch(events));
    const queries = new ArqQueries(db);
    expect((await queries.list('all-projects')).map((arq) => [arq.uuid, arq.lastBindId])).toEqual([
      [uuid(1), uuid(1001)],
      [uuid(2), null],
      [uuid(4), null],
    ]);
  });

  it('builds the same rows in one batch, one event per batch, in pairs, and with every batch applied twice', async () => {
    const expected = await build(onePerBatch(events));
    expect(await build(oneBatch(events))).toEqual(expected);
    expect(await build(inBatchesOf(2, events))).toEqual(expected);
    expect(await build(everyBatchTwice(onePerBatch(events)))).toEqual(expected);
    expect(await build(everyBatchTwice(inBatchesOf(3, events)))).toEqual(expected);
  });
});
