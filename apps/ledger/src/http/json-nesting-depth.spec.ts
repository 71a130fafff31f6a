import { exceedsJsonDepth } from './json-nesting-depth';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('exceedsJsonDepth', () => {
  it('counts arrays and objects alike, up to and past the limit', () => {
    expect(exceedsJsonDepth(nested(3), 3)).toBe(false);
    expect(exceedsJsonDepth(nested(4), 3)).toBe(true);
    expect(exceedsJsonDepth('{"a":{"b":[{"c":1}]}}', 4)).toBe(false);
    expect(exceedsJsonDepth('{"a":{"b":[{"c":1}]}}', 3)).toBe(true);
  });

  it('measures the deepest branch, not the number of brackets', () => {
    expect(exceedsJsonDepth(`[${Array.from({ length: 1000 }, () => '[1]').join(',')}]`, 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[\\"', c: '\\\\' }), 1)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify(['"[', ['x']]), 1)).toBe(true);
  });

  it('reads a hostile body of 1,400 levels in one pass and stops at the limit', () => {
    expect(exceedsJsonDepth(`${'{"a":'.repeat(1400)}1${'}'.repeat(1400)}`, 64)).toBe(true);
    expect(exceedsJsonDepth('['.repeat(10_000_000), 64)).toBe(true);
  });
});
