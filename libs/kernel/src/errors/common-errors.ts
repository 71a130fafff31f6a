import { LedgerError } from './ledger-error';

/** Input that fails validation; nothing was changed. */
export class ValidationError extends LedgerError {
  constructor(code: string, message: string, facts: Record<string, unknown> = {}) {
    super(code, 400, message, facts);
  }
}

/** The addressed resource does not exist (or is not visible to the caller). */
export class NotFoundError extends LedgerError {
  constructor(code: string, message: string, facts: Record<string, unknown> = {}) {
    super(code, 404, message, facts);
  }
}

/** The request is valid but conflicts with the current state. */
export class ConflictError extends LedgerError {
  constructor(code: string, message: string, facts: Record<string, unknown> = {}) {
    super(code, 409, message, facts);
  }
}

/** The caller is known but may not do this. */
export class ForbiddenError extends LedgerError {
  constructor(code: string, message: string, facts: Record<string, unknown> = {}) {
    super(code, 403, message, facts);
  }
}

/** The caller could not be authenticated. */
export class UnauthenticatedError extends LedgerError {
  constructor(code: string, message: string) {
    super(code, 401, message);
  }
}
