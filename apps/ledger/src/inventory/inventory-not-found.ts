import { InventoryErrorCodes } from '@ledger/inventory';
import { isUuid, NotFoundError, ValidationError } from '@ledger/kernel';

/** Not-found and bad-identifier errors of the native inventory reads. */
export const hostNotFound = (hostname: string) =>
  new NotFoundError(InventoryErrorCodes.HOST_NOT_FOUND, `host ${hostname} has never reported`, { hostname });

export const deviceNotFound = (uuid: string) =>
  new NotFoundError(InventoryErrorCodes.DEVICE_NOT_FOUND, `device ${uuid} is not in the inventory`, { uuid });

export const deployableNotFound = (uuid: string) =>
  new NotFoundError(InventoryErrorCodes.DEPLOYABLE_NOT_FOUND, `deployable ${uuid} is not in the inventory`, { uuid });

/** A path uuid, checked and lower-cased (the form the read model keeps). */
export function pathUuid(value: string, name = 'uuid'): string {
  if (!isUuid(value)) throw new ValidationError('REQUEST.INVALID', `${name} must be a UUID`, { parameter: name, value: String(value).slice(0, 64) });
  return value.toLowerCase();
}
