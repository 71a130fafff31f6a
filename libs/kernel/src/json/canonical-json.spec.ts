import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"z":1}]},"b":1}');
  });

  it('gives equal values equal text whatever their key order', () => {
    expect(canonicalJson({ x: 1, y: 'é' })).toBe(canonicalJson({ y: 'é', x: 1 }));
  });

  it('writes undefined array items as null, as JSON.stringify does', () => {
    expect(canonicalJson([1, undefined])).toBe('[1,null]');
  });

  it('gives what JSON.stringify would give after a round trip, for the values it accepts', () => {
    const value = {
      when: new Date('2026-11-22T03:00:00.000Z'),
      nested: { gone: undefined, fn: () => 1, list: [undefined, NaN, -0, 1e21, 'é\u2028'] },
      boxed: [Object(1), Object('s'), Object(false)],
      custom: { toJSON: () => ({ b: 2, a: 1 }) },
    };
    expect(canonicalJson(value)).toBe(canonicalJson(JSON.parse(JSON.stringify(value))));
  });
});
