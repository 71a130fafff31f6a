import type { QuotaConsumer, ReserveQuota } from './quota.commands';
import { quotaDecider } from './quota.decider';
import { deciderSpec } from '@ledger/eventstore/testing';
import { limitSet, released, reserved } from './testing/quota-events';

const spec = deciderSpec(quotaDecider);
const reserve = (...consumers: QuotaConsumer[]): ReserveQuota => ({ type: 'ReserveQuota', project: 'p1', consumers });
const consumer = (consumerId: string, resources: Record<string, number>): QuotaConsumer => ({ consumerId, resources });

describe('quotaDecider: ReserveQuota', () => {
  it('reserves up to the limit exactly, and refuses one more with the facts', () => {
    const atOne = [limitSet('FPGA', 2), reserved('arq-1', { FPGA: 1 })];
    spec.given(atOne).when(reserve(consumer('arq-2', { FPGA: 1 }))).then([reserved('arq-2', { FPGA: 1 })]);
    const error = spec
      .given([...atOne, reserved('arq-2', { FPGA: 1 })])
      .when(reserve(consumer('arq-3', { FPGA: 1 })))
      .thenThrows('QUOTA.EXCEEDED', { project: 'p1', resource: 'FPGA', limit: 2, inUse: 2, requested: 1 });
    expect(error.status).toBe(403);
    expect(error.message).toBe('quota exceeded for FPGA in project p1: limit 2, in use 2, requested 1');
  });

  it('is all or nothing across consumers: one over the limit refuses them all', () => {
    const given = spec.given([limitSet('FPGA', 3), limitSet('capacity:memoryGiB', 100), reserved('arq-0', { FPGA: 1 })]);
    given
      .when(reserve(consumer('arq-1', { FPGA: 1 }), consumer('arq-2', { FPGA: 1, 'capacity:memoryGiB': 100 })))
      .then([reserved('arq-1', { FPGA: 1 }), reserved('arq-2', { FPGA: 1, 'capacity:memoryGiB': 100 })]);
    given
      .when(reserve(consumer('arq-1', { FPGA: 1 }), consumer('arq-2', { FPGA: 1 }), consumer('arq-3', { FPGA: 1 })))
      .thenThrows('QUOTA.EXCEEDED', { resource: 'FPGA', limit: 3, inUse: 1, requested: 3 });
    given
      .when(reserve(consumer('arq-1', { FPGA: 1, 'capacity:memoryGiB': 60 }), consumer('arq-2', { 'capacity:memoryGiB': 41 })))
      .thenThrows('QUOTA.EXCEEDED', { resource: 'capacity:memoryGiB', limit: 100, inUse: 0, requested: 101 });
  });

  it('treats a resource without a limit as unlimited, and still counts it', () => {
    const state = spec.given([limitSet('FPGA', 1), reserved('arq-1', { PGPU: 1000 })]).state;
    expect(state.usage).toEqual({ PGPU: 1000 });
    spec
      .given([limitSet('FPGA', 1), reserved('arq-1', { PGPU: 1000 })])
      .when(reserve(consumer('arq-2', { PGPU: 2 ** 31 - 1 })))
      .then([reserved('arq-2', { PGPU: 2 ** 31 - 1 })]);
  });

  it('forbids a resource whose limit is 0', () => {
    spec.given([limitSet('VGPU', 0)]).when(reserve(consumer('arq-1', { VGPU: 1 }))).thenThrows('QUOTA.EXCEEDED', { limit: 0, inUse: 0 });
  });

  it('refuses everything new after a limit was lowered below usage, and allows it again once usage falls', () => {
    const lowered = [reserved('arq-1', { FPGA: 2 }), reserved('arq-2', { FPGA: 1 }), limitSet('FPGA', 2)];
    spec.given(lowered).when(reserve(consumer('arq-3', { FPGA: 1 }))).thenThrows('QUOTA.EXCEEDED', { limit: 2, inUse: 3 });
    spec.given([...lowered, released('arq-2', { FPGA: 1 })]).when(reserve(consumer('arq-3', { FPGA: 1 }))).thenThrows('QUOTA.EXCEEDED');
    spec
      .given([...lowered, released('arq-1', { FPGA: 2 })])
      .when(reserve(consumer('arq-3', { FPGA: 1 })))
      .then([reserved('arq-3', { FPGA: 1 })]);
  });

  it('appends nothing for a consumer that already holds the same amounts, even at the limit', () => {
    const full = [limitSet('FPGA', 1), reserved('arq-1', { FPGA: 1, 'capacity:memoryGiB': 8 })];
    spec.given(full).when(reserve(consumer('arq-1', { 'capacity:memoryGiB': 8, FPGA: 1 }))).then([]);
    spec
      .given([limitSet('FPGA', 2), ...full.slice(1)])
      .when(reserve(consumer('arq-1', { FPGA: 1, 'capacity:memoryGiB': 8 }), consumer('arq-2', { FPGA: 1 })))
      .then([reserved('arq-2', { FPGA: 1 })]);
  });

  it('refuses a consumer that holds different amounts with QUOTA.CONSUMER_CONFLICT (409)', () => {
    const given = spec.given([reserved('arq-1', { FPGA: 1 })]);
    const error = given.when(reserve(consumer('arq-1', { FPGA: 2 }))).thenThrows('QUOTA.CONSUMER_CONFLICT', {
      project: 'p1',
      consumerId: 'arq-1',
      reserved: { FPGA: 1 },
      requested: { FPGA: 2 },
    });
    expect(error.status).toBe(409);
    given.when(reserve(consumer('arq-2', { FPGA: 1 }), consumer('arq-1', { PGPU: 1 }))).thenThrows('QUOTA.CONSUMER_CONFLICT');
  });

  it('reserves a released consumer id again (the id is free once released)', () => {
    spec
      .given([reserved('arq-1', { FPGA: 1 }), released('arq-1', { FPGA: 1 })])
      .when(reserve(consumer('arq-1', { FPGA: 2 })))
      .then([reserved('arq-1', { FPGA: 2 })]);
  });

  it('appends nothing for no consumers', () => {
    spec.given([]).when(reserve()).then([]);
  });

  it.each([
    ['a zero amount', [consumer('arq-1', { FPGA: 0 })], 'consumers[0].resources.FPGA'],
    ['a fractional amount', [consumer('arq-1', { FPGA: 0.5 })], 'consumers[0].resources.FPGA'],
    ['an amount over 2^31-1', [consumer('arq-1', { FPGA: 2 ** 31 })], 'consumers[0].resources.FPGA'],
    ['no resources', [consumer('arq-1', {})], 'consumers[0].resources'],
    ['an unknown resource', [consumer('arq-1', { DPU: 1 })], 'consumers[0].resources.DPU'],
    ['a consumer id with a space', [consumer('arq 1', { FPGA: 1 })], 'consumers[0].consumerId'],
    ['an empty consumer id', [consumer('', { FPGA: 1 })], 'consumers[0].consumerId'],
    ['one consumer twice', [consumer('arq-1', { FPGA: 1 }), consumer('arq-1', { FPGA: 1 })], 'consumers[1].consumerId'],
    ['a consumer that is not an object', [null as unknown as QuotaConsumer], 'consumers[0]'],
  ])('refuses %s with QUOTA.INVALID', (_, consumers, path) => {
    spec.given([]).when(reserve(...consumers)).thenThrows('QUOTA.INVALID', { path });
  });

  it('refuses more than 256 consumers in one command', () => {
    const many = Array.from({ length: 257 }, (_, i) => consumer(`arq-${i}`, { FPGA: 1 }));
    spec.given([]).when(reserve(...many)).thenThrows('QUOTA.INVALID', { path: 'consumers' });
    expect(spec.given([]).when(reserve(...many.slice(0, 256))).then(many.slice(0, 256).map((c) => reserved(c.consumerId, c.resources)))).toHaveLength(256);
  });

  it('checks input before state: a malformed command is invalid even where it would conflict', () => {
    spec
      .given([reserved('arq-1', { FPGA: 1 })])
      .when(reserve(consumer('arq-1', { FPGA: 2 }), consumer('arq-2', { FPGA: -1 })))
      .thenThrows('QUOTA.INVALID');
  });
});
