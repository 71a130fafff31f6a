import { QuotaInvalidError } from './quota.errors';

// Room for uuids and for prefixed ids (`arq:<uuid>`); no spaces or slashes, so ids read well in logs and URLs.
const CONSUMER_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Consumers one command may reserve or release: a request of Nova's with many devices fits easily. */
export const MAX_CONSUMERS_PER_COMMAND = 256;

export function assertConsumerId(consumerId: unknown, path: string): asserts consumerId is string {
  if (typeof consumerId !== 'string' || !CONSUMER_ID.test(consumerId)) {
    throw new QuotaInvalidError(path, 'must match [A-Za-z0-9_.:-]{1,128}', consumerId);
  }
}

/** Checks the list's type and size; `path` names it in errors. */
export function assertConsumerList(list: unknown, path: string): asserts list is readonly unknown[] {
  if (!Array.isArray(list)) throw new QuotaInvalidError(path, 'must be an array', list);
  if (list.length > MAX_CONSUMERS_PER_COMMAND) {
    throw new QuotaInvalidError(path, `has ${list.length} entries, at most ${MAX_CONSUMERS_PER_COMMAND} allowed`);
  }
}
