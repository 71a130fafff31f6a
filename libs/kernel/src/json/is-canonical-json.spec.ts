import { canonicalJson } from './canonical-json';
import { isCanonicalJson } from './is-canonical-json';

const canonicalRoundTrip = (text: string): boolean => {
  try {
    return canonicalJson(JSON.parse(text)) === text;
  } catch {
    return false;
  }
};

describe('isCanonicalJson', () => {
  it('accepts what canonicalJson writes for escape-free values', () => {
    const values = [{ b: 1, a: { d: [3, { z: 1 }], c: null } }, [], {}, 'é ✓ \u2028', -1.5e-7, 1e21, 0, true, false, null, { '10': 1, '9': 2, __proto__x: [[]] }];
    for (const value of values) expect(isCanonicalJson(canonicalJson(value))).toBe(true);
  });

  it('refuses text that is not the canonical form of its value', () => {
    const texts = ['{"b":1,"a":2}', '{"a":1,"a":2}', '{ "a":1}', '[1, 2]', '1.0', '-0', '1E21', '1e21', '0x1', '"\\u0041"', '"\\n"', '{"a":1}x', '{"a":1', '[1,]', 'nul', '"\ud800"', '', '01', '1x', '{1:2}', '["a]', '99999999999999999', '{"a\\"b":1}', '[1,\n2]', '{"a":["x","y\\u0000"]}', '-01', '-'];
    for (const text of texts) expect({ text, canonical: isCanonicalJson(text) }).toEqual({ text, canonical: false });
  });

  it('never accepts text whose canonical form differs, over many generated texts', () => {
    const atoms = ['0', '1', '-1', '10', '01', '1.5', '1.50', '1e+21', '1e21', '-0', '9007199254740993', 'true', 'null', '"a"', '"b"', '"\\""', '"é"', '{}', '[]', ' '];
    let seed = 7;
    const pick = <T>(items: readonly T[]): T => items[(seed = (seed * 1103515245 + 12345) % 2147483648) % items.length];
    const generate = (depth: number): string => {
      if (depth === 0) return pick(atoms);
      const kind = pick(['atom', 'array', 'object']);
      if (kind === 'atom') return pick(atoms);
      const count = pick([0, 1, 2, 3]);
      const items = Array.from({ length: count }, () => generate(depth - 1));
      return kind === 'array' ? `[${items.join(',')}]` : `{${items.map((item) => `${pick(['"a"', '"b"', '"c"', '"B"'])}:${item}`).join(',')}}`;
    };
    for (let i = 0; i < 20_000; i++) {
      const text = generate(3);
      if (isCanonicalJson(text)) expect({ text, roundTrip: canonicalRoundTrip(text) }).toEqual({ text, roundTrip: true });
    }
  });
});
