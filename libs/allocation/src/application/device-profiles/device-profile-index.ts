import type { EventStore, RecordedEvent } from '@ledger/eventstore';
import type { ArqCreated, ArqDeleted } from '../../domain/arq.events';
import type { DeviceProfileCreated, DeviceProfileDeleted } from '../../domain/device-profile.events';
import { DEVICE_PROFILE_STREAM_CATEGORY } from '../../domain/device-profile.streams';

const READ_BATCH = 5000;
/** Requests live on `arq-<uuid>` (arqStream). */
const ARQ_STREAM_CATEGORY = 'arq';

type IndexedEvent = DeviceProfileCreated | DeviceProfileDeleted | ArqCreated | ArqDeleted;

const INDEXED_TYPES: readonly IndexedEvent['type'][] = [
  'allocation.DeviceProfileCreated',
  'allocation.DeviceProfileDeleted',
  'allocation.ArqCreated',
  'allocation.ArqDeleted',
];

/**
 * What the device-profile commands must know beyond one profile's stream:
 * which live profile has a uuid (a create with a uuid must not reuse one, a
 * delete by uuid must find its name) and how many live requests use it (a
 * used profile is not deleted). Streams are keyed by name, so no stream
 * answers these; a read model would, but only once the processors caught
 * up, and waiting for them put every processor's lag on the command.
 *
 * The index is kept in memory from the event store itself: before each use
 * it reads the profile and request events appended since it last looked,
 * up to the log's head (one filtered read when nothing is new to it). It is
 * rebuilt from the log after a restart (nothing to lose in a crash) and
 * sees every replica's appends, since they share the log. Like the read
 * model it replaces, it cannot stop a request created between its read and
 * the delete's append: that race is as wide as one append.
 */
export class DeviceProfileIndex {
  private position = 0;
  private readonly profileNames = new Map<string, string>();
  /** Live requests' profile uuid, by request uuid: a delete names only the request. */
  private readonly requestProfiles = new Map<string, string>();
  private readonly requestCounts = new Map<string, number>();
  /** Catch-ups run one after another, each to the head as it finds it. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly store: Pick<EventStore, 'readAll' | 'headPosition'>) {}

  /** Reads what was appended since the last look, up to the log's head now. */
  catchUp(): Promise<void> {
    const next = this.queue.then(() => this.readToHead());
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The name of the live profile with this uuid (any case), as of the last catch-up. */
  nameOf(uuid: string): string | undefined {
    return this.profileNames.get(uuid.toLowerCase());
  }

  /** How many live accelerator requests use the profile, as of the last catch-up. */
  requestsUsing(profileUuid: string): number {
    return this.requestCounts.get(profileUuid.toLowerCase()) ?? 0;
  }

  private async readToHead(): Promise<void> {
    const head = await this.store.headPosition();
    while (this.position < head) {
      const { events, position } = await this.store.readAll({
        after: this.position,
        max: READ_BATCH,
        filter: { categories: [DEVICE_PROFILE_STREAM_CATEGORY, ARQ_STREAM_CATEGORY], types: INDEXED_TYPES },
      });
      for (const event of events) this.apply(event as RecordedEvent & IndexedEvent);
      if (position <= this.position) return; // nothing visible yet past here (a writer not committed)
      this.position = position;
    }
  }

  private apply(event: IndexedEvent): void {
    switch (event.type) {
      case 'allocation.DeviceProfileCreated':
        this.profileNames.set(event.data.uuid, event.data.name);
        return;
      case 'allocation.DeviceProfileDeleted':
        this.profileNames.delete(event.data.uuid);
        return;
      case 'allocation.ArqCreated':
        this.requestProfiles.set(event.data.uuid, event.data.deviceProfileUuid);
        this.requestCounts.set(event.data.deviceProfileUuid, this.requestsUsing(event.data.deviceProfileUuid) + 1);
        return;
      case 'allocation.ArqDeleted': {
        const profile = this.requestProfiles.get(event.data.uuid);
        if (profile === undefined) return;
        this.requestProfiles.delete(event.data.uuid);
        this.requestCounts.set(profile, this.requestsUsing(profile) - 1);
      }
    }
  }
}
