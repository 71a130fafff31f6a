interface FetchFailure {
  name?: string;
  message?: string;
  cause?: { code?: string; message?: string };
}

/** Whether fetch gave up on an `AbortSignal.timeout`. */
export const isFetchTimeout = (error: unknown): boolean => (error as FetchFailure | undefined)?.name === 'TimeoutError';

/**
 * Why fetch threw, from its cause (ECONNREFUSED, UND_ERR_SOCKET…), or
 * `timedOut` when it was a timeout. Duck-typed: fetch's errors come from
 * another realm under Jest.
 */
export function fetchFailureReason(error: unknown, timedOut = 'timed out'): string {
  if (isFetchTimeout(error)) return timedOut;
  const failure = error as FetchFailure | undefined;
  return failure?.cause?.code ?? failure?.cause?.message ?? failure?.message ?? String(error);
}
