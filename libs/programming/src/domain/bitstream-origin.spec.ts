import { deciderSpec } from '@ledger/eventstore/testing';
import { checkOriginBytes, originUrlOf } from './bitstream-origin';
import { bitstreamDecider } from './bitstream.decider';
import { KEY_ID, registerCommand, registered, SHA } from './testing/programming-events';

const spec = deciderSpec(bitstreamDecider);
const valid = { verdict: 'valid', keyId: KEY_ID } as const;
const URL_OF_IMAGE = 'https://images.example.net/fpga/nlb0.gbs?sig=abc';

describe('bitstreamDecider: RegisterBitstream from an origin URL', () => {
  it('records the url as the origin, with the same policy and id as stored bytes', () => {
    spec
      .given([])
      .when(registerCommand(valid, { originUrl: URL_OF_IMAGE }))
      .then([registered(valid, SHA, { kind: 'url', ref: URL_OF_IMAGE })]);
    spec.given([]).when(registerCommand({ verdict: 'unsigned' }, { originUrl: URL_OF_IMAGE })).thenThrows('BITSTREAM.UNSIGNED');
  });

  it('refuses bytes registered already, whether stored or at another URL', () => {
    spec.given([registered(valid)]).when(registerCommand(valid, { originUrl: URL_OF_IMAGE })).thenThrows('BITSTREAM.DUPLICATE', { status: 'registered' });
  });

  it('refuses a URL that is not http(s) before anything else is recorded', () => {
    spec.given([]).when(registerCommand(valid, { originUrl: 'file:///srv/nlb0.gbs' })).thenThrows('BITSTREAM.ORIGIN_INVALID', { path: 'url' });
  });
});

describe('originUrlOf', () => {
  it('accepts http and https URLs, normalised', () => {
    expect(originUrlOf('HTTP://Images.example.net:8080/a b.gbs')).toBe('http://images.example.net:8080/a%20b.gbs');
    expect(originUrlOf(URL_OF_IMAGE)).toBe(URL_OF_IMAGE);
  });

  it.each([
    ['file:///srv/nlb0.gbs', 'must be http or https, not file'],
    ['ftp://images.example.net/nlb0.gbs', 'must be http or https, not ftp'],
    ['/api/v1/bitstreams/x/content', 'must be an absolute URL'],
    ['https://ops:secret@images.example.net/nlb0.gbs', 'must not carry credentials (user:password@)'],
    [`https://images.example.net/${'a'.repeat(2048)}`, 'must be at most 2048 characters'],
    [42, 'must be a string'],
  ])('refuses %s: %s', (url, reason) => {
    expect(() => originUrlOf(url)).toThrow(expect.objectContaining({ code: 'BITSTREAM.ORIGIN_INVALID', facts: { path: 'url', reason } }));
  });
});

describe('checkOriginBytes', () => {
  const declared = { sha256: SHA, sizeBytes: 4096 };

  it('passes the declared bytes and names the first member that differs, without the query', () => {
    expect(() => checkOriginBytes(URL_OF_IMAGE, declared, { sha256: SHA, sizeBytes: 4096 })).not.toThrow();
    const shown = 'https://images.example.net/fpga/nlb0.gbs';
    expect(() => checkOriginBytes(URL_OF_IMAGE, declared, { sha256: 'ef'.repeat(32), sizeBytes: 4095 })).toThrow(
      expect.objectContaining({ code: 'BITSTREAM.ORIGIN_MISMATCH', facts: { url: shown, member: 'sizeBytes', declared: 4096, actual: 4095 } }),
    );
    expect(() => checkOriginBytes(URL_OF_IMAGE, declared, { sha256: 'ef'.repeat(32), sizeBytes: 4096 })).toThrow(
      expect.objectContaining({ code: 'BITSTREAM.ORIGIN_MISMATCH', facts: { url: shown, member: 'sha256', declared: SHA, actual: 'ef'.repeat(32) } }),
    );
  });
});
