import { NAMESPACE_DNS, uuidV3, uuidV5 } from './name-based-uuid';
import { isUuid, uuidV7 } from './uuid-v7';

describe('uuidV7', () => {
  it('is a version-7, RFC 9562 variant UUID carrying the time', () => {
    const id = uuidV7(0x0196b3c25a1e);
    expect(isUuid(id)).toBe(true);
    expect(id.startsWith('0196b3c2-5a1e-7')).toBe(true);
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
  });

  it('sorts in creation order within one millisecond, across refills of the random pool', () => {
    const ids = Array.from({ length: 1000 }, () => uuidV7(1_900_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('name-based UUIDs', () => {
  // Reference values from Python's uuid module, which Cyborg uses for Placement provider UUIDs.
  it('matches uuid.uuid3(NAMESPACE_DNS, name)', () => {
    expect(uuidV3(NAMESPACE_DNS, 'python.org')).toBe('6fa459ea-ee8a-3ca4-894e-db77e160355e');
  });

  it('matches uuid.uuid5(NAMESPACE_DNS, name)', () => {
    expect(uuidV5(NAMESPACE_DNS, 'python.org')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });
});
