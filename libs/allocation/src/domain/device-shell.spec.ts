import { deviceShellOf } from './device-shell';

const LOADED = 'c7'.repeat(16);
const REPORTED = 'aa'.repeat(16);

describe("a device's shell, as a bind checks bitstreams against it", () => {
  it('is the shell the ledger loaded, whatever the device reports', () => {
    expect(deviceShellOf({ loadedInterfaceId: LOADED.toUpperCase(), boardInfo: { interface_id: REPORTED } })).toEqual({ interfaceIds: [LOADED], source: 'loaded' });
  });

  it('is what the device reports before the ledger loaded one: each interface id of board_info.interface_id, normalised', () => {
    const uuidForm = 'f3c99413-5081-4aad-bced-07eb84a6d0bb';
    expect(deviceShellOf({ loadedInterfaceId: null, boardInfo: { interface_id: `${REPORTED.toUpperCase()}, ${uuidForm}` } })).toEqual({
      interfaceIds: [REPORTED, 'f3c9941350814aadbced07eb84a6d0bb'],
      source: 'reported',
    });
  });

  it('is unknown when neither is there', () => {
    expect(deviceShellOf({ loadedInterfaceId: null, boardInfo: { serial: 'x' } })).toEqual({ interfaceIds: [], source: 'unknown' });
    expect(deviceShellOf({ loadedInterfaceId: null, boardInfo: { interface_id: ' , ' } })).toEqual({ interfaceIds: [], source: 'unknown' });
  });
});
