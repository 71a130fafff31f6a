import { cyborgLinks, cyborgTime } from './cyborg-representation';

describe('Cyborg representation helpers', () => {
  it('formats times as Cyborg does', () => {
    expect(cyborgTime('2026-11-22T01:30:02.123Z')).toBe('2026-11-22T01:30:02+00:00');
    expect(cyborgTime(null)).toBeNull();
  });

  it('links a resource to where we serve it, with an optional bookmark', () => {
    expect(cyborgLinks('http://h:1', 'deployables', 'u', true)).toEqual([
      { href: 'http://h:1/v2/deployables/u', rel: 'self' },
      { href: 'http://h:1/deployables/u', rel: 'bookmark' },
    ]);
  });
});
