import type { RecordedEvent } from '@ledger/eventstore';
import type { QuotaEvent, QuotaResources } from '@ledger/quota';

export interface ReservationRow {
  readonly project: string;
  readonly consumerId: string;
  readonly resources: QuotaResources;
  readonly reservedAt: string;
}

/**
 * What one batch changes, netted per key: the last limit and reservation
 * per key win, usage is summed into one delta per project and resource.
 * Events at or below a project's applied stream version are skipped, so a
 * redelivered event, inside a batch or across batches, changes nothing.
 */
export class QuotaBatch {
  /** Stream version per project after the batch (only projects the batch moved). */
  readonly versions = new Map<string, number>();
  /** [project, resource] → limit, or null when removed. */
  readonly limits = new Map<string, { project: string; resource: string; limit: number | null }>();
  /** [project, consumerId] → the reservation, or null when released. */
  readonly reservations = new Map<string, { project: string; consumerId: string; row: ReservationRow | null }>();
  /** [project, resource] → change of the amount in use. */
  readonly usage = new Map<string, { project: string; resource: string; delta: number }>();

  constructor(private readonly applied: ReadonlyMap<string, number>) {}

  apply(recorded: RecordedEvent): void {
    const event = recorded as unknown as RecordedEvent & QuotaEvent;
    const { project } = event.data;
    if (recorded.version <= (this.versions.get(project) ?? this.applied.get(project) ?? 0)) return;
    this.versions.set(project, recorded.version);
    switch (event.type) {
      case 'quota.LimitSet':
        this.limits.set(key(project, event.data.resource), { project, resource: event.data.resource, limit: event.data.limit });
        break;
      case 'quota.Reserved': {
        const { consumerId, resources } = event.data;
        this.reservations.set(key(project, consumerId), { project, consumerId, row: { project, consumerId, resources, reservedAt: recorded.recordedAt } });
        this.addUsage(project, resources, 1);
        break;
      }
      case 'quota.Released':
        this.reservations.set(key(project, event.data.consumerId), { project, consumerId: event.data.consumerId, row: null });
        this.addUsage(project, event.data.resources, -1);
        break;
    }
  }

  private addUsage(project: string, resources: QuotaResources, sign: 1 | -1): void {
    for (const [resource, amount] of Object.entries(resources)) {
      const entry = this.usage.get(key(project, resource)) ?? { project, resource, delta: 0 };
      entry.delta += sign * amount;
      this.usage.set(key(project, resource), entry);
    }
  }
}

// NUL cannot occur in project ids or resource and consumer names, so the pair is unambiguous.
const key = (project: string, name: string): string => `${project}\u0000${name}`;
