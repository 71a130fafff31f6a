import type { CommandContext } from '@ledger/eventstore';
import { ArqInvalidError, NovaServiceRoleRequiredError } from '../../../domain/arq.errors';
import type { ArqCaller } from '../arq-visibility';
import { UnbindArqsCommand } from '../unbind-arqs/unbind-arqs.command';
import { parseArqPatch, type PatchCaller } from './arq-patch';
import { BindArqsCommand } from './bind-arqs.command';

/** Who sends a PATCH, as the route knows them. */
export interface ArqPatchCaller extends PatchCaller, ArqCaller {}

/**
 * What `PATCH /v2/accelerator_requests` (and `…/{uuid}`, whose body must
 * name that request alone) asks: Cyborg's patch format carries both the
 * bind (every op `add`) and the unbind (every op `remove`). Either needs
 * the service role, a check in code that no policy file can open
 * (CVE-2026-40214).
 */
export function commandOfArqPatch(body: unknown, caller: ArqPatchCaller, context: CommandContext, pathUuid?: string): BindArqsCommand | UnbindArqsCommand {
  if (pathUuid !== undefined) assertNamesOnly(body, pathUuid);
  if (!caller.isService) throw new NovaServiceRoleRequiredError('Binding and unbinding');
  const patch = parseArqPatch(body, caller);
  const { visibility } = caller;
  return patch.kind === 'bind' ? new BindArqsCommand({ binds: patch.binds, visibility }, context) : new UnbindArqsCommand({ uuids: patch.uuids, visibility }, context);
}

function assertNamesOnly(body: unknown, uuid: string): void {
  const keys = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  if (keys.length !== 1 || keys[0].toLowerCase() !== uuid.toLowerCase()) {
    throw new ArqInvalidError('body', `The patch sent to /v2/accelerator_requests/${uuid} must name that request, and only it`);
  }
}
