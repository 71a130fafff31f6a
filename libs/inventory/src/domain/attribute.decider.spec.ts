import { attributeUuidOf, discoveredAttributesOf, isDiscoveredAttributeKey } from './attribute';
import { attributeDecider, type CreateAttribute } from './attribute.decider';
import type { AttributeEvent } from './inventory.events';
import { deciderSpec } from '@ledger/eventstore/testing';

const DEPLOYABLE = 'b0a7f0c4-6a3e-5c55-9d0e-1e5a0c1f2a3b';
const AT = '2026-03-01T10:00:00.000Z';
const spec = deciderSpec(attributeDecider);
const create = (key: string, value = 'v'): CreateAttribute => ({ type: 'CreateAttribute', deployableUuid: DEPLOYABLE, key, value, createdAt: AT });
const uuid = attributeUuidOf(DEPLOYABLE, 'owner');
const created: AttributeEvent = {
  type: 'inventory.AttributeCreated',
  data: { uuid, deployableUuid: DEPLOYABLE, key: 'owner', value: 'team-a', createdAt: AT },
};
const deleted: AttributeEvent = { type: 'inventory.AttributeDeleted', data: { uuid, deployableUuid: DEPLOYABLE } };

describe('attributeDecider', () => {
  it('creates an attribute whose uuid follows from the deployable and the key', () => {
    spec.given([]).when({ ...create('owner', 'team-a'), deployableUuid: DEPLOYABLE.toUpperCase() }).then([created]);
    expect(attributeUuidOf(DEPLOYABLE.toUpperCase(), 'owner')).toBe(uuid);
    expect(attributeUuidOf(DEPLOYABLE, 'Owner')).not.toBe(uuid);
  });

  it('refuses a second attribute with the key until the first is deleted', () => {
    spec.given([created]).when(create('owner')).thenThrows('ATTRIBUTE.DUPLICATE_KEY', { key: 'owner' });
    spec.given([created, deleted]).when(create('owner', 'team-b')).then([
      { type: 'inventory.AttributeCreated', data: { ...created.data, value: 'team-b' } },
    ]);
  });

  it.each(['rc', 'trait0', 'trait12'])('refuses the discovered key %s with 409', (key) => {
    const error = spec.given([]).when(create(key)).thenThrows('ATTRIBUTE.RESERVED_KEY');
    expect(error.status).toBe(409);
  });

  it.each([
    ['', 'key'],
    ['has space', 'key'],
    ['k'.repeat(256), 'key'],
  ])('refuses the key %j', (key, path) => {
    spec.given([]).when(create(key)).thenThrows('ATTRIBUTE.INVALID', { path });
  });

  it('refuses an overlong or non-string value and a malformed deployable uuid', () => {
    spec.given([]).when(create('owner', 'x'.repeat(256))).thenThrows('ATTRIBUTE.INVALID', { path: 'value' });
    spec.given([]).when(create('owner', 'x'.repeat(255))).events();
    spec.given([]).when(create('owner', 7 as unknown as string)).thenThrows('ATTRIBUTE.INVALID', { path: 'value' });
    spec.given([]).when({ ...create('owner'), deployableUuid: 'dep-1' }).thenThrows('ATTRIBUTE.INVALID', { path: 'deployableUuid' });
  });

  it('deletes a present attribute, and answers not found for an absent or deleted one', () => {
    spec.given([created]).when({ type: 'DeleteAttribute', uuid }).then([deleted]);
    expect(spec.given([]).when({ type: 'DeleteAttribute', uuid }).thenThrows('ATTRIBUTE.NOT_FOUND').status).toBe(404);
    spec.given([created, deleted]).when({ type: 'DeleteAttribute', uuid }).thenThrows('ATTRIBUTE.NOT_FOUND');
  });
});

describe('discovered attributes', () => {
  it('are rc then trait0…N in trait order, the keys an operator cannot use', () => {
    expect(discoveredAttributesOf({ resourceClass: 'FPGA', traits: ['CUSTOM_A', 'CUSTOM_B'] })).toEqual([
      { key: 'rc', value: 'FPGA' },
      { key: 'trait0', value: 'CUSTOM_A' },
      { key: 'trait1', value: 'CUSTOM_B' },
    ]);
    expect(['rc', 'trait3', 'traits1', 'RC', 'trait'].map(isDiscoveredAttributeKey)).toEqual([true, true, false, false, false]);
  });
});
