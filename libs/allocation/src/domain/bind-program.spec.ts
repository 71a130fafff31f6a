import { isLedgerError } from '@ledger/kernel';
import { type BindableBitstream, programRequestOf, type ProgrammableRegion, type ProgramRequest, resolveBindProgram } from './bind-program';

const SHELL = 'b7a6f1d0c5e44c3b8e3f2a1b0c9d8e7f';
const FUNCTION = '9f'.repeat(16);
const bitstream = (id: string, overrides: Partial<BindableBitstream> = {}): BindableBitstream => ({
  bitstreamId: id,
  sha256: id.slice(-1).repeat(64),
  origin: { kind: 'stored', ref: `sha256:${id.slice(-1).repeat(64)}` },
  functionId: FUNCTION,
  interfaceId: SHELL,
  retired: false,
  trusted: true,
  ...overrides,
});
const OLD = bitstream('00000000-0000-5000-8000-00000000000a', { functionId: 'aa'.repeat(16) });
const UNKNOWN_SHELL = { interfaceIds: [], source: 'unknown' } as const;
const region = (overrides: Partial<ProgrammableRegion> = {}): ProgrammableRegion => ({ pciAddress: '0000:3b:00.0', shell: UNKNOWN_SHELL, holds: null, ...overrides });
/** A device that reports these interface ids (normalised, as deviceShellOf hands them over). */
const reporting = (...interfaceIds: string[]) => ({ shell: { interfaceIds, source: 'reported' } as const });
const byId = (bitstreamId: string): ProgramRequest => ({ by: 'bitstream', bitstreamId });
const byFunction: ProgramRequest = { by: 'function', functionId: FUNCTION };

/** The stable code a refusal carries (undefined when it resolves). */
function refusal(resolve: () => unknown): string | undefined {
  try {
    resolve();
    return undefined;
  } catch (error) {
    if (!isLedgerError(error)) throw error;
    expect(error.status).toBe(409);
    return error.code;
  }
}

describe('what a bind programs (resolving the profile group’s accel:* keys)', () => {
  it('reads the request from an FPGA group, normalising a function id as agents read it back; other classes program nothing', () => {
    expect(programRequestOf('FPGA', { 'accel:bitstream_id': 'ABC' })).toEqual({ by: 'bitstream', bitstreamId: 'abc' });
    expect(programRequestOf('FPGA', { 'accel:function_id': '9F9F9F9F-9F9F-9F9F-9F9F-9F9F9F9F9F9F' })).toEqual(byFunction);
    expect(programRequestOf('FPGA', { 'accel:other': 'x' })).toBeNull();
    expect(programRequestOf('FPGA', undefined)).toBeNull();
    expect(programRequestOf('PGPU', { 'accel:bitstream_id': 'abc' })).toBeNull();
  });

  it('loads the named bitstream from the ledger, and keeps what the region held for the undo', () => {
    const wanted = bitstream('00000000-0000-5000-8000-00000000000b');
    expect(resolveBindProgram(byId(wanted.bitstreamId), [wanted], region({ holds: OLD }))).toEqual({
      bitstreamId: wanted.bitstreamId,
      sha256: wanted.sha256,
      url: `/api/v1/bitstreams/${wanted.bitstreamId}/content`,
      functionId: FUNCTION,
      pciAddress: '0000:3b:00.0',
      expectedFunctionId: null,
      previous: { bitstreamId: OLD.bitstreamId, sha256: OLD.sha256, url: `/api/v1/bitstreams/${OLD.bitstreamId}/content` },
    });
    expect(resolveBindProgram(byId(wanted.bitstreamId), [wanted], region()).previous).toBeNull();
    // An image no longer trusted is not loaded back, not even to undo.
    expect(resolveBindProgram(byId(wanted.bitstreamId), [wanted], region({ holds: { ...OLD, trusted: false } })).previous).toBeNull();
  });

  it('names an image kept in an image store by its origin URL, for the agent to fetch there (no ledger credential goes with it)', () => {
    const origin = { kind: 'url', ref: 'https://images.example.net/fpga/nlb1.gbs' } as const;
    const wanted = bitstream('00000000-0000-5000-8000-00000000000b', { origin });
    const atOrigin = bitstream('00000000-0000-5000-8000-00000000000c', { origin: { kind: 'url', ref: 'https://images.example.net/fpga/old.gbs' } });
    const program = resolveBindProgram(byFunction, [wanted], region({ holds: atOrigin }));
    expect([program.url, program.previous?.url]).toEqual([origin.ref, 'https://images.example.net/fpga/old.gbs']);
  });

  it.each<[string, BindableBitstream[], ProgrammableRegion, string]>([
    ['an unknown bitstream', [], region(), 'ARQ.BITSTREAM_UNKNOWN'],
    ['a retired one', [bitstream('00000000-0000-5000-8000-00000000000b', { retired: true })], region(), 'ARQ.BITSTREAM_RETIRED'],
    ['one no trusted key vouches for', [bitstream('00000000-0000-5000-8000-00000000000b', { trusted: false })], region(), 'ARQ.BITSTREAM_UNTRUSTED'],
    ['one built for another shell', [bitstream('00000000-0000-5000-8000-00000000000b')], region(reporting('c'.repeat(32))), 'ARQ.BITSTREAM_INCOMPATIBLE'],
  ])('refuses %s by id', (_what, candidates, where, code) => {
    expect(refusal(() => resolveBindProgram(byId('00000000-0000-5000-8000-00000000000b'), candidates, where))).toBe(code);
  });

  it('accepts a bitstream by id built for one of the interface ids of the device\'s shell, dashes and case aside', () => {
    const wanted = bitstream('00000000-0000-5000-8000-00000000000b', { interfaceId: `${SHELL.slice(0, 8)}-${SHELL.slice(8)}`.toUpperCase() });
    expect(resolveBindProgram(byId(wanted.bitstreamId), [wanted], region(reporting('c'.repeat(32), SHELL))).bitstreamId).toBe(wanted.bitstreamId);
  });

  it('names the shell and where the ledger knows it from when it refuses an image built for another', () => {
    const other = bitstream('00000000-0000-5000-8000-00000000000b', { interfaceId: 'c'.repeat(32) });
    let refused: unknown;
    try {
      resolveBindProgram(byId(other.bitstreamId), [other], region(reporting(SHELL)));
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'ARQ.BITSTREAM_INCOMPATIBLE', facts: { interfaceId: 'c'.repeat(32), deviceInterfaceId: SHELL, shellSource: 'reported' } });
  });

  it('picks the newest live, trusted bitstream of the function that fits the shell, and asks for that function back', () => {
    const candidates = [
      bitstream('00000000-0000-5000-8000-000000000001'),
      bitstream('00000000-0000-5000-8000-000000000002', { interfaceId: 'c'.repeat(32) }),
      bitstream('00000000-0000-5000-8000-000000000003'),
      bitstream('00000000-0000-5000-8000-000000000004', { retired: true }),
      bitstream('00000000-0000-5000-8000-000000000005', { trusted: false }),
      bitstream('00000000-0000-5000-8000-000000000006', { functionId: 'bb'.repeat(16) }),
    ];
    expect(resolveBindProgram(byFunction, candidates, region(reporting(SHELL)))).toMatchObject({
      bitstreamId: '00000000-0000-5000-8000-000000000003',
      expectedFunctionId: FUNCTION,
    });
    // No shell known: any image of the function fits.
    expect(resolveBindProgram(byFunction, candidates.slice(0, 2), region()).bitstreamId).toBe('00000000-0000-5000-8000-000000000002');
  });

  it('refuses a function no usable bitstream has', () => {
    const unusable = [bitstream('00000000-0000-5000-8000-000000000004', { retired: true }), bitstream('00000000-0000-5000-8000-000000000005', { trusted: false })];
    expect(refusal(() => resolveBindProgram(byFunction, unusable, region()))).toBe('ARQ.NO_BITSTREAM_FOR_FUNCTION');
    expect(refusal(() => resolveBindProgram(byFunction, [bitstream('00000000-0000-5000-8000-000000000001')], region(reporting('c'.repeat(32)))))).toBe(
      'ARQ.NO_BITSTREAM_FOR_FUNCTION',
    );
  });
});
