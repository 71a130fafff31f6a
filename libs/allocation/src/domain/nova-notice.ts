import { type ArqState, isResolved, type LiveArq } from './arq.state';

/** One `accelerator-request-bound` server external event (CYBORG-V2.md §7). */
export interface AcceleratorRequestBound {
  readonly instanceUuid: string;
  readonly arqUuid: string;
  readonly status: 'completed' | 'failed';
}

/**
 * What Nova is told about an instance right after one of its requests
 * resolved, given its requests as they stood then: once every request bound
 * to the instance is resolved, one event per request (`completed` for Bound,
 * `failed` for BindFailed), in uuid order; before that, nothing. Nova waits
 * for the whole set, so only the resolution that completes it notifies.
 */
export function novaNotice(instanceUuid: string, requests: readonly ArqState[]): AcceleratorRequestBound[] {
  const bound = requests.filter((arq): arq is LiveArq => arq.status === 'live' && arq.binding?.instanceUuid === instanceUuid);
  if (bound.length === 0 || bound.some((arq) => !isResolved(arq.state))) return [];
  return bound
    .map((arq): AcceleratorRequestBound => ({ instanceUuid, arqUuid: arq.uuid, status: arq.state === 'Bound' ? 'completed' : 'failed' }))
    .sort((a, b) => (a.arqUuid < b.arqUuid ? -1 : a.arqUuid > b.arqUuid ? 1 : 0));
}
