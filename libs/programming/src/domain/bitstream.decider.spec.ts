import { deciderSpec } from '@ledger/eventstore/testing';
import { bitstreamIdOf } from './bitstream-id';
import { bitstreamDecider } from './bitstream.decider';
import { FUNCTION_ID, KEY_ID, registerCommand, registered, retired, SHA } from './testing/programming-events';

const spec = deciderSpec(bitstreamDecider);
const valid = { verdict: 'valid', keyId: KEY_ID } as const;
const retire = (reason: string | null = null, bitstreamId = bitstreamIdOf(SHA)) =>
  ({ type: 'RetireBitstream', bitstreamId, reason, retiredAt: '2026-03-01T10:00:00.000Z' }) as const;

describe('bitstreamDecider: RegisterBitstream', () => {
  it('registers an image signed by a trusted key, with the verdict and an id derived from its sha256', () => {
    const [event] = spec.given([]).when(registerCommand(valid)).then([registered(valid)]);
    expect(event.data.bitstreamId).toBe(bitstreamIdOf(SHA));
    expect(bitstreamIdOf('cd'.repeat(32))).not.toBe(event.data.bitstreamId);
  });

  it('refuses a signature that does not verify, whatever the policy on unsigned images', () => {
    const invalid = { verdict: 'invalid', reason: 'does not verify with any of the 1 trusted keys' } as const;
    spec.given([]).when(registerCommand(invalid)).thenThrows('BITSTREAM.SIGNATURE_INVALID', { sha256: SHA, reason: invalid.reason });
    spec.given([]).when(registerCommand(invalid, { allowUnsigned: true })).thenThrows('BITSTREAM.SIGNATURE_INVALID');
  });

  it('refuses an unsigned image unless the policy allows it, and then records it as unsigned', () => {
    spec.given([]).when(registerCommand({ verdict: 'unsigned' })).thenThrows('BITSTREAM.UNSIGNED', { sha256: SHA });
    spec.given([]).when(registerCommand({ verdict: 'unsigned' }, { allowUnsigned: true })).then([registered({ verdict: 'unsigned' })]);
  });

  it('refuses the same bytes again, registered or retired', () => {
    spec.given([registered(valid)]).when(registerCommand(valid)).thenThrows('BITSTREAM.DUPLICATE', { status: 'registered' });
    spec.given([registered(valid), retired()]).when(registerCommand(valid)).thenThrows('BITSTREAM.DUPLICATE', { status: 'retired' });
  });

  it('normalises a function id given as an upper-case uuid with dashes', () => {
    const dashed = '9F9F9F9F-9F9F-9F9F-9F9F-9F9F9F9F9F9F';
    const [event] = spec.given([]).when(registerCommand(valid, { functionId: dashed })).events();
    expect(event).toMatchObject({ data: { functionId: FUNCTION_ID } });
  });

  it.each([
    ['sha256', { sha256: 'xyz' }],
    ['sizeBytes', { sizeBytes: 0 }],
    ['functionId', { functionId: 'nlb0' }],
    ['interfaceId', { interfaceId: '' }],
    ['interfaceId', { interfaceId: 'has space' }],
    ['vendor', { vendor: '' }],
    ['name', { name: 'line\nbreak' }],
  ])('refuses a bad %s with BITSTREAM.INVALID naming it', (path, overrides) => {
    spec.given([]).when(registerCommand(valid, overrides)).thenThrows('BITSTREAM.INVALID', { path });
  });
});

describe('bitstreamDecider: RetireBitstream', () => {
  it('retires a registered image once; again appends nothing', () => {
    spec.given([registered(valid)]).when(retire('superseded by nlb1')).then([retired('superseded by nlb1')]);
    spec.given([registered(valid), retired()]).when(retire()).then([]);
    expect(spec.given([registered(valid), retired()]).state).toMatchObject({ status: 'retired', bitstream: { sha256: SHA } });
  });

  it('refuses an unknown bitstream and an empty reason', () => {
    spec.given([]).when(retire()).thenThrows('BITSTREAM.NOT_FOUND');
    spec.given([registered(valid)]).when(retire('')).thenThrows('BITSTREAM.INVALID', { path: 'reason' });
  });
});
