import type { CommandContext } from '@ledger/eventstore';
import { LedgerError } from '@ledger/kernel';
import { UnbindArqsCommand } from '../unbind-arqs/unbind-arqs.command';
import { type ArqPatchCaller, commandOfArqPatch } from './arq-patch.http';
import { BindArqsCommand } from './bind-arqs.command';

const A = '0196b3c2-0000-7000-8000-00000000a001';
const RP = '823f5e9e-ef5b-3461-bd09-8006cc3755d1';
const I = '11111111-2222-4333-8444-555555555555';
const nova: ArqPatchCaller = { microversion: 0, isAdmin: false, isService: true, visibility: { project: 'p1' } };
const context: CommandContext = { actor: { user: 'nova', project: 'p1', roles: ['service'] }, correlationId: 'c1' };
const bind = { [A]: [{ op: 'add', path: '/hostname', value: 'compute-1' }, { op: 'add', path: '/device_rp_uuid', value: RP }, { op: 'add', path: '/instance_uuid', value: I }] };
const unbind = { [A]: [{ op: 'remove', path: '/hostname' }] };

function refusal(run: () => unknown): LedgerError {
  try {
    run();
  } catch (error) {
    return error as LedgerError;
  }
  throw new Error('accepted');
}

describe('the v2 PATCH of accelerator requests', () => {
  it('binds with every op add, carrying the caller visibility and context', () => {
    const command = commandOfArqPatch(bind, nova, context);
    expect(command).toBeInstanceOf(BindArqsCommand);
    expect(command.input).toEqual({ binds: [{ uuid: A, hostname: 'compute-1', deviceRpUuid: RP, instanceUuid: I }], visibility: { project: 'p1' } });
    expect(command.context).toBe(context);
  });

  it('unbinds with every op remove', () => {
    const command = commandOfArqPatch(unbind, { ...nova, visibility: 'all-projects' }, context, A.toUpperCase());
    expect(command).toBeInstanceOf(UnbindArqsCommand);
    expect(command.input).toEqual({ uuids: [A], visibility: 'all-projects' });
  });

  it('needs the service role, whatever the body', () => {
    for (const body of [bind, unbind]) {
      expect(refusal(() => commandOfArqPatch(body, { ...nova, isService: false }, context))).toMatchObject({ status: 403, code: 'AUTH.ROLE_REQUIRED', facts: { roles: ['service'] } });
    }
  });

  it("on one request's path, takes a body that names that request alone", () => {
    const other = '0196b3c2-0000-7000-8000-00000000a002';
    expect(refusal(() => commandOfArqPatch(bind, nova, context, other))).toMatchObject({ status: 400, code: 'ARQ.INVALID', facts: { path: 'body' } });
    expect(refusal(() => commandOfArqPatch({ ...bind, [other]: bind[A] }, nova, context, A))).toMatchObject({ status: 400, code: 'ARQ.INVALID' });
  });

  it('refuses what the wire format refuses, before any command', () => {
    expect(refusal(() => commandOfArqPatch({ [A]: [...bind[A], ...unbind[A]] }, nova, context))).toMatchObject({ status: 400, code: 'ARQ.INVALID' });
  });
});
