import type { CommandContext } from '@ledger/eventstore';
import { LedgerError } from '@ledger/kernel';
import type { ArqCaller } from '../arq-visibility';
import { readArqDeleteQuery } from './arq-delete-query';
import { commandOfArqDelete } from './arq-delete.http';
import { DeleteArqsCommand, DeleteInstanceArqsCommand } from './delete-arqs.command';

const A = '0196b3c2-0000-7000-8000-00000000a001';
const B = '0196b3c2-0000-7000-8000-00000000a002';
const I = '11111111-2222-4333-8444-555555555555';
const nova: ArqCaller = { visibility: 'all-projects', isService: true };
const member: ArqCaller = { visibility: { project: 'p1' }, isService: false };
const context: CommandContext = { actor: { user: 'u', project: 'p1', roles: ['member'] }, correlationId: 'c1' };

function refusal(run: () => unknown): LedgerError {
  try {
    run();
  } catch (error) {
    return error as LedgerError;
  }
  throw new Error('accepted');
}

describe('the v2 DELETE of accelerator requests', () => {
  it('reads ?arqs= (deduplicated, lower case) or ?instance=, exactly one of them', () => {
    expect(readArqDeleteQuery({ arqs: `${A}, ${A.toUpperCase()},${B}` })).toEqual({ arqs: [A, B] });
    expect(readArqDeleteQuery({ instance: I.toUpperCase() })).toEqual({ instanceUuid: I });
    for (const query of [{}, { arqs: A, instance: I }, { arqs: A, all: '1' }, { arqs: 'x' }, { arqs: Array.from({ length: 65 }, () => A).join(',') }, { instance: 'x' }]) {
      expect(refusal(() => readArqDeleteQuery(query))).toMatchObject({ status: 400, code: 'ARQ.INVALID' });
    }
  });

  it('deletes by uuid for anyone who sees the requests; only the service role may delete bound ones', () => {
    const byMember = commandOfArqDelete({ arqs: [A] }, member, context);
    expect(byMember).toBeInstanceOf(DeleteArqsCommand);
    expect(byMember.input).toEqual({ uuids: [A], visibility: { project: 'p1' }, mayDeleteBound: false });
    expect(commandOfArqDelete({ arqs: [A] }, nova, context).input).toMatchObject({ mayDeleteBound: true });
  });

  it("deletes an instance's requests for the service role only", () => {
    const command = commandOfArqDelete({ instanceUuid: I }, nova, context);
    expect(command).toBeInstanceOf(DeleteInstanceArqsCommand);
    expect(command.input).toEqual({ instanceUuid: I, visibility: 'all-projects' });
    expect(refusal(() => commandOfArqDelete({ instanceUuid: I }, member, context))).toMatchObject({ status: 403, code: 'AUTH.ROLE_REQUIRED' });
  });
});
