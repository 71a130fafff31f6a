import { formatBitstreamTable, signatureBase64, imageOf } from './bitstream.command';

describe('ledgerctl bitstream', () => {
  it('sends a raw signature base64-encoded, and a base64 one as it is', () => {
    const raw = Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7f]);
    expect(signatureBase64(raw)).toBe(raw.toString('base64'));
    expect(signatureBase64(Buffer.from(`${raw.toString('base64')}\n`))).toBe(raw.toString('base64'));
  });

  it('prints a table with the verdict and the signing key', () => {
    const table = formatBitstreamTable([
      {
        bitstreamId: '0196b3c2-0000-7000-8000-000000000001',
        sha256: 'ab'.repeat(32),
        sizeBytes: 4096,
        functionId: '9f'.repeat(16),
        vendor: 'intel',
        name: null,
        state: 'registered',
        signature: { verdict: 'valid', keyId: 'cd'.repeat(32) },
      },
    ]);
    expect(table.split('\n')[0]).toMatch(/^ID\s+NAME\s+FUNCTION\s+VENDOR\s+SIZE\s+SIGNATURE\s+STATE\s+SHA256/);
    expect(table).toContain(`valid ${'cd'.repeat(6)}`);
    expect(table).toContain(' - ');
  });
});

describe('bitstream add: the image by file or by origin URL', () => {
  it('sends the url with the declared sha256 and size, and refuses both or neither, or a URL without them', () => {
    expect(imageOf(undefined, { origin: 'https://images.example.net/nlb0.gbs', sha256: 'ab'.repeat(32), size: '4096' })).toEqual({
      url: 'https://images.example.net/nlb0.gbs',
      sha256: 'ab'.repeat(32),
      sizeBytes: 4096,
    });
    expect(() => imageOf('nlb0.gbs', { origin: 'https://images.example.net/nlb0.gbs' })).toThrow(/not both/);
    expect(() => imageOf(undefined, {})).toThrow(/not both/);
    expect(() => imageOf(undefined, { origin: 'https://images.example.net/nlb0.gbs', sha256: 'ab'.repeat(32) })).toThrow(/--size/);
  });
});
