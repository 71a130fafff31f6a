import { normalizeHeartbeat } from './host-heartbeat';

describe('normalizeHeartbeat', () => {
  it('lower-cases PCI addresses and records a missing reason as null', () => {
    const heartbeat = normalizeHeartbeat({
      hostname: 'compute-1',
      devices: [{ pciAddress: '0000:3B:00.0', health: 'ok', healthReason: undefined as never }],
    });
    expect(heartbeat.devices).toEqual([{ pciAddress: '0000:3b:00.0', health: 'ok', healthReason: null }]);
  });

  it.each([
    ['one address twice', [{ pciAddress: '0000:3b:00.0' }, { pciAddress: '0000:3B:00.0' }], 'devices[1].pciAddress'],
    ['an unknown level', [{ pciAddress: '0000:3b:00.0', health: 'sick' }], 'devices[0].health'],
    ['an overlong reason', [{ pciAddress: '0000:3b:00.0', healthReason: 'x'.repeat(256) }], 'devices[0].healthReason'],
  ])('refuses %s, naming the member', (_, devices, path) => {
    const heartbeat = { hostname: 'compute-1', devices: devices.map((device) => ({ health: 'ok', healthReason: null, ...device })) };
    expect(() => normalizeHeartbeat(heartbeat as never)).toThrow(expect.objectContaining({ code: 'INVENTORY.HEARTBEAT_INVALID', facts: expect.objectContaining({ path }) }));
  });
});
