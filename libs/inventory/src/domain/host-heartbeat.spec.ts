import { normalizeHeartbeat } from './host-heartbeat';

describe('normalizeHeartbeat', () => {
  it('lower-cases PCI addresses and records a missing reason as null', () => {
    const heartbeat = normalizeHeartbeat({
      hostname: 'compute-1',
      devices: [{ pciAddress: '0000:3B:00.0', health: 'ok', healthReason: undefined as never }],
    });
    expect(heartbeat.devices).toEqual([{ pciAddress: '0000:3b:00.0', health: 'ok', healthReason: null, cause: null }]);
  });

  it('keeps a cause with its null members dropped', () => {
    const heartbeat = normalizeHeartbeat({
      hostname: 'compute-1',
      devices: [{ pciAddress: '0000:3b:00.0', health: 'failed', healthReason: 'Xid 79', cause: { kind: 'xid', code: 79, count: null as never } }],
    });
    expect(heartbeat.devices[0].cause).toEqual({ kind: 'xid', code: 79 });
  });

  it.each([
    ['one address twice', [{ pciAddress: '0000:3b:00.0' }, { pciAddress: '0000:3B:00.0' }], 'devices[1].pciAddress'],
    ['an unknown level', [{ pciAddress: '0000:3b:00.0', health: 'sick' }], 'devices[0].health'],
    ['an overlong reason', [{ pciAddress: '0000:3b:00.0', healthReason: 'x'.repeat(256) }], 'devices[0].healthReason'],
    ['a cause of an unknown kind', [{ pciAddress: '0000:3b:00.0', cause: { kind: 'gremlins' } }], 'devices[0].cause.kind'],
    ['a cause with a negative code', [{ pciAddress: '0000:3b:00.0', cause: { kind: 'xid', code: -1 } }], 'devices[0].cause.code'],
    ['a cause with a fractional count', [{ pciAddress: '0000:3b:00.0', cause: { kind: 'ecc', count: 1.5 } }], 'devices[0].cause.count'],
    ['a cause with an unknown member', [{ pciAddress: '0000:3b:00.0', cause: { kind: 'ecc', severity: 3 } }], 'devices[0].cause.severity'],
    ['a cause that is not an object', [{ pciAddress: '0000:3b:00.0', cause: 'xid 79' }], 'devices[0].cause'],
  ])('refuses %s, naming the member', (_, devices, path) => {
    const heartbeat = { hostname: 'compute-1', devices: devices.map((device) => ({ health: 'ok', healthReason: null, ...device })) };
    expect(() => normalizeHeartbeat(heartbeat as never)).toThrow(expect.objectContaining({ code: 'INVENTORY.HEARTBEAT_INVALID', facts: expect.objectContaining({ path }) }));
  });
});
