import type { CommandResult } from '@ledger/eventstore';

/** What an inventory command did: nothing (appended 0) or the events it appended. */
export interface InventoryCommandResult {
  readonly appended: number;
  /** Global position of the last appended event; undefined when nothing was appended. */
  readonly position: number | undefined;
  /** The stream's version after the command. */
  readonly version: number;
  readonly eventTypes: readonly string[];
}

export const toInventoryCommandResult = (result: CommandResult<unknown>): InventoryCommandResult => ({
  appended: result.appended,
  position: result.position,
  version: result.version,
  eventTypes: result.events.map((event) => event.type),
});
