import { isUuid } from '@ledger/kernel';
import { ArqInvalidError } from '../../../domain/arq.errors';

/** What a DELETE names: requests by uuid, or an instance whose requests all go. */
export type ArqDeleteTarget = { readonly arqs: readonly string[] } | { readonly instanceUuid: string };

/** Cyborg's `DELETE ?arqs=u1,u2` or `?instance=U`: exactly one of the two (Cyborg answers 500 otherwise). */
export function readArqDeleteQuery(query: Record<string, unknown>): ArqDeleteTarget {
  const { arqs, instance, ...rest } = query;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new ArqInvalidError(unknown[0], `Unknown query parameters: ${unknown.join(', ')}; use arqs or instance`);
  if ((arqs === undefined) === (instance === undefined)) throw new ArqInvalidError('query', 'Give exactly one of ?arqs=uuid,… or ?instance=uuid');
  if (instance !== undefined) {
    if (!isUuid(instance)) throw new ArqInvalidError('instance', 'instance must be an instance uuid');
    return { instanceUuid: instance.toLowerCase() };
  }
  const uuids = typeof arqs === 'string' ? arqs.split(',').map((uuid) => uuid.trim()) : [];
  if (uuids.length === 0 || uuids.length > 64 || uuids.some((uuid) => !isUuid(uuid))) {
    throw new ArqInvalidError('arqs', 'arqs must list 1 to 64 accelerator request uuids, separated by commas');
  }
  return { arqs: [...new Set(uuids.map((uuid) => uuid.toLowerCase()))] };
}
