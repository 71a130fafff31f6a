import { LedgerError } from '@ledger/kernel';
import { parseArqPatch } from './arq-patch';

const A = '0196B3C2-0000-7000-8000-00000000A001';
const a = A.toLowerCase();
const RP = '823f5e9e-ef5b-3461-bd09-8006cc3755d1';
const I = '11111111-2222-4333-8444-555555555555';
const member = { microversion: 0, isAdmin: false };
const bindOps = [
  { op: 'add', path: '/hostname', value: 'compute-1.example.org' },
  { op: 'add', path: '/device_rp_uuid', value: RP },
  { op: 'add', path: '/instance_uuid', value: I },
];
const removeOps = [{ op: 'remove', path: '/hostname' }, { op: 'remove', path: '/device_rp_uuid' }, { op: 'remove', path: '/instance_uuid' }];

function refusal(body: unknown, caller = member): LedgerError {
  try {
    parseArqPatch(body, caller);
  } catch (error) {
    return error as LedgerError;
  }
  throw new Error('accepted');
}

describe('parseArqPatch', () => {
  it('reads a bind, normalising uuids', () => {
    expect(parseArqPatch({ [A]: bindOps }, member)).toEqual({
      kind: 'bind',
      binds: [{ uuid: A.toLowerCase(), hostname: 'compute-1.example.org', deviceRpUuid: RP, instanceUuid: I }],
    });
  });

  it('reads an unbind of several requests', () => {
    const B = '0196b3c2-0000-7000-8000-00000000a002';
    expect(parseArqPatch({ [A]: removeOps, [B]: removeOps.slice(0, 1) }, member)).toEqual({ kind: 'unbind', uuids: [A.toLowerCase(), B] });
  });

  it('takes /project_id from 2.1, from admins only', () => {
    const ops = [...bindOps, { op: 'add', path: '/project_id', value: 'tenant-a' }];
    expect(parseArqPatch({ [A]: ops }, { microversion: 1, isAdmin: true })).toMatchObject({ binds: [{ projectId: 'tenant-a' }] });
    expect(refusal({ [A]: ops }, { microversion: 0, isAdmin: true })).toMatchObject({ status: 406 });
    expect(refusal({ [A]: ops }, { microversion: 1, isAdmin: false })).toMatchObject({ status: 403 });
  });

  it.each([
    ['not an object', [bindOps], 'body'],
    ['empty', {}, 'body'],
    ['a key that is no uuid', { nope: bindOps }, 'nope'],
    ['no operations', { [A]: [] }, A],
    ['an operation that is not an object', { [A]: ['add'] }, `${A}[0]`],
    ['an unknown member', { [A]: [{ ...bindOps[0], from: '/x' }] }, `${A}[0]`],
    ['an unknown op', { [A]: [{ ...bindOps[0], op: 'replace' }] }, `${A}[0]`],
    ['an unknown path', { [A]: [{ op: 'add', path: '/state', value: 'Bound' }] }, `${A}[0]`],
    ['a path twice', { [A]: [...bindOps, bindOps[0]] }, `${A}[3]`],
    ['a value on remove', { [A]: [{ op: 'remove', path: '/hostname', value: 'x' }] }, `${A}[0]`],
    ['a value that is not a string', { [A]: [{ op: 'add', path: '/hostname', value: 7 }] }, `${A}[0]`],
    ['mixed add and remove', { [A]: [bindOps[0], removeOps[1]] }, 'body'],
    ['a bind field missing', { [A]: bindOps.slice(0, 2) }, a],
    ['a bad host name', { [A]: [{ ...bindOps[0], value: '-bad host' }, bindOps[1], bindOps[2]] }, `${a}/hostname`],
    ['a bad provider uuid', { [A]: [bindOps[0], { ...bindOps[1], value: 'rp' }, bindOps[2]] }, `${a}/device_rp_uuid`],
    ['a bad instance uuid', { [A]: [bindOps[0], bindOps[1], { ...bindOps[2], value: 'vm' }] }, `${a}/instance_uuid`],
  ])('refuses %s with ARQ.INVALID naming the member', (_name, body, path) => {
    expect(refusal(body)).toMatchObject({ code: 'ARQ.INVALID', status: 400, facts: { path } });
  });

  it("says which bind fields are absent, in Cyborg's words", () => {
    expect(refusal({ [A]: bindOps.slice(0, 1) }).message).toBe("Couldn't apply patch. Reason: Fields absent in patch device_rp_uuid,instance_uuid");
  });
});
