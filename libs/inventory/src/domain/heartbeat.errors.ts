import { ValidationError } from '@ledger/kernel';

/** Stable error codes of heartbeats (beside InventoryErrorCodes, which they extend). */
export const HeartbeatErrorCodes = {
  /** A heartbeat breaks a rule the DTO cannot see (one PCI address listed twice); `facts.path` names the member. */
  HEARTBEAT_INVALID: 'INVENTORY.HEARTBEAT_INVALID',
} as const;

/** A heartbeat breaks a domain rule; nothing was recorded. */
export class HeartbeatInvalidError extends ValidationError {
  constructor(path: string, reason: string) {
    super(HeartbeatErrorCodes.HEARTBEAT_INVALID, `heartbeat: ${path} ${reason}`, { path, reason });
  }
}
