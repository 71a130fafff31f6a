import { clientLedgerUrl } from './client-ledger-url';

describe('clientLedgerUrl', () => {
  it('takes LEDGER_URL when set, else the ledger’s own PORT on this machine, else 8666', () => {
    expect(clientLedgerUrl({ LEDGER_URL: 'https://ledger.example:9443/', PORT: '9000' })).toBe('https://ledger.example:9443');
    expect(clientLedgerUrl({ PORT: '9000' })).toBe('http://127.0.0.1:9000');
    expect(clientLedgerUrl({ LEDGER_URL: '  ', PORT: ' ' })).toBe('http://127.0.0.1:8666');
  });

  it('refuses a setting it cannot dial, by name', () => {
    expect(() => clientLedgerUrl({ LEDGER_URL: 'ledger:8666' })).toThrow('LEDGER_URL: "ledger:8666" is not an http(s) URL');
    expect(() => clientLedgerUrl({ LEDGER_URL: 'not a url' })).toThrow('LEDGER_URL: "not a url" is not a URL');
    expect(() => clientLedgerUrl({ PORT: '0' })).toThrow('PORT: "0" is not an integer between 1 and 65535');
  });
});
