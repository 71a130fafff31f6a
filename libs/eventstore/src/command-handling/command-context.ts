import type { Actor, DomainEvent } from '@ledger/kernel';
import type { NewEvent } from '../envelope';

/** Who asks, and in which conversation: becomes the metadata of every event appended. */
export interface CommandContext {
  readonly actor: Actor;
  readonly correlationId: string;
  /** The request or message that caused this command (defaults to the correlation id). */
  readonly causationId?: string;
}

/** Schema version per event type (default 1). */
export type SchemaVersions = Readonly<Record<string, number>>;

/** A decision's events as the store takes them, each with the command's metadata. */
export function toNewEvents(events: readonly DomainEvent[], context: CommandContext, schemaVersions?: SchemaVersions): NewEvent[] {
  return events.map((event) => ({
    type: event.type,
    data: event.data,
    metadata: {
      correlationId: context.correlationId,
      causationId: context.causationId ?? context.correlationId,
      actor: context.actor,
      schemaVersion: schemaVersions?.[event.type] ?? 1,
    },
  }));
}
