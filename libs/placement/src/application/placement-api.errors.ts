import { LedgerError } from '@ledger/kernel';

/** Placement cannot be reached or failed on its side (connection error, timeout, 5xx): retry later, forever. */
export class PlacementUnavailableError extends LedgerError {
  constructor(operation: string, cause: string) {
    super('PLACEMENT.UNAVAILABLE', 503, `Placement is unavailable (${operation}): ${cause}`, { operation, cause });
  }
}

/** A write carried a provider generation that is no longer current: re-read, re-plan, retry. */
export class PlacementGenerationConflictError extends LedgerError {
  constructor(operation: string, detail: string) {
    super('PLACEMENT.GENERATION_CONFLICT', 409, `Placement's provider changed meanwhile (${operation}): ${detail}`, { operation, detail });
  }
}

/** The provider, resource class or trait still has users (allocations, inventories, providers). */
export class PlacementInUseError extends LedgerError {
  constructor(operation: string, detail: string) {
    super('PLACEMENT.IN_USE', 409, `Placement refused while in use (${operation}): ${detail}`, { operation, detail });
  }
}

/** A provider with this uuid or name exists already. */
export class PlacementDuplicateError extends LedgerError {
  constructor(operation: string, detail: string) {
    super('PLACEMENT.DUPLICATE', 409, `Placement already has it (${operation}): ${detail}`, { operation, detail });
  }
}

export class PlacementNotFoundError extends LedgerError {
  constructor(operation: string, detail: string) {
    super('PLACEMENT.NOT_FOUND', 404, `Placement has no such thing (${operation}): ${detail}`, { operation, detail });
  }
}

/** Placement refused the request as malformed or unknown (a 4xx the others do not cover). */
export class PlacementRequestError extends LedgerError {
  constructor(operation: string, status: number, detail: string) {
    super('PLACEMENT.REQUEST_REFUSED', 502, `Placement answered ${status} (${operation}): ${detail}`, { operation, status, detail });
  }
}

/** A provider the ledger wants cannot be created: its uuid or name belongs to a provider elsewhere. */
export class PlacementProviderConflictError extends LedgerError {
  constructor(uuid: string, problem: string) {
    super('PLACEMENT.PROVIDER_CONFLICT', 409, `provider ${uuid} cannot be created: ${problem}`, { uuid, problem });
  }
}
