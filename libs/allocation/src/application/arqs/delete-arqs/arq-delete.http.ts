import type { CommandContext } from '@ledger/eventstore';
import { NovaServiceRoleRequiredError } from '../../../domain/arq.errors';
import type { ArqCaller } from '../arq-visibility';
import type { ArqDeleteTarget } from './arq-delete-query';
import { DeleteArqsCommand, DeleteInstanceArqsCommand } from './delete-arqs.command';

/**
 * What `DELETE /v2/accelerator_requests` (`?arqs=` or `?instance=`) and
 * `…/{uuid}` ask. Deleting by instance is Nova's clean-up and needs the
 * service role; deleting a bound request by uuid needs it too, which the
 * handler judges per request.
 */
export function commandOfArqDelete(target: ArqDeleteTarget, caller: ArqCaller, context: CommandContext): DeleteArqsCommand | DeleteInstanceArqsCommand {
  const { visibility } = caller;
  if ('instanceUuid' in target) {
    if (!caller.isService) throw new NovaServiceRoleRequiredError('Deleting by instance');
    return new DeleteInstanceArqsCommand({ instanceUuid: target.instanceUuid, visibility }, context);
  }
  return new DeleteArqsCommand({ uuids: target.arqs, visibility, mayDeleteBound: caller.isService }, context);
}
