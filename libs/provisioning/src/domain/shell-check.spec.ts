import { verifyShell } from './shell-check';

const shell = { bitstreamId: 'b1', sha256: 'a'.repeat(64), interfaceId: 'f'.repeat(32) };

describe('verifying a loaded shell against the registry', () => {
  it('passes when the checksum and the interface id read back are the registered ones', () => {
    expect(verifyShell(shell, { target: 'shell', sha256: shell.sha256, interfaceId: shell.interfaceId, previousInterfaceId: null })).toEqual({
      sha256: shell.sha256,
      interfaceId: shell.interfaceId,
    });
  });

  it('refuses another checksum, another interface id, or evidence that names neither', () => {
    expect(() => verifyShell(shell, { sha256: 'b'.repeat(64), interfaceId: shell.interfaceId })).toThrow(expect.objectContaining({ code: 'PROVISION.SHELL_MISMATCH', facts: expect.objectContaining({ member: 'sha256' }) }));
    expect(() => verifyShell(shell, { sha256: shell.sha256, interfaceId: '0'.repeat(32) })).toThrow(expect.objectContaining({ facts: expect.objectContaining({ member: 'interfaceId' }) }));
    expect(() => verifyShell(shell, undefined)).toThrow(expect.objectContaining({ code: 'PROVISION.SHELL_MISMATCH' }));
  });
});
