import type { DomainEvent } from '@ledger/kernel';

/** What a bound request's attach handle looks like to Nova (CYBORG-V2.md §1.4). */
export interface BoundAttachHandle {
  readonly uuid: string;
  /** Cyborg's `attach_handle_type`: `PCI` (functions and VFs) or `MDEV`. */
  readonly type: 'PCI' | 'MDEV';
  /** Cyborg's `attach_handle_info`: `domain`, `bus`, `device`, `function` (+ `physical_network`; MDEV adds `asked_type`, `vgpu_mark`). */
  readonly info: Readonly<Record<string, string>>;
}

/** A request for one unit of one resource class of one group of a device profile. */
export type ArqCreated = DomainEvent<
  'allocation.ArqCreated',
  {
    readonly uuid: string;
    readonly projectId: string;
    readonly deviceProfileUuid: string;
    readonly deviceProfileName: string;
    readonly groupId: number;
    readonly resourceClass: string;
    /** The group's trait rules, snapshotted: a later profile change cannot change what this request asked for. */
    readonly requiredTraits: readonly string[];
    readonly forbiddenTraits: readonly string[];
    /** The group's `accel:*` keys (what a bind programs), snapshotted like the traits; absent when it has none. */
    readonly accel?: Readonly<Record<string, string>>;
    readonly createdAt: string;
  }
>;

/** Nova chose a host and provider: the bind began. `deviceUuid` / `deployableUuid` are the provider's, resolved at the start. */
export type ArqBindStarted = DomainEvent<
  'allocation.ArqBindStarted',
  {
    readonly uuid: string;
    readonly hostname: string;
    readonly deviceRpUuid: string;
    readonly instanceUuid: string;
    readonly deviceUuid: string;
    readonly deployableUuid: string;
    /** The bind workflow's instance id: later steps and their undoing name it, so a stale one never touches a newer bind. Absent on binds recorded before workflows. */
    readonly bindId?: string;
    readonly startedAt: string;
  }
>;

export type ArqBound = DomainEvent<
  'allocation.ArqBound',
  { readonly uuid: string; readonly attachHandle: BoundAttachHandle; readonly boundAt: string }
>;

export type ArqBindFailed = DomainEvent<
  'allocation.ArqBindFailed',
  { readonly uuid: string; readonly code: string; readonly reason: string; readonly failedAt: string }
>;

export type ArqUnbound = DomainEvent<'allocation.ArqUnbound', { readonly uuid: string; readonly unboundAt: string }>;

export type ArqDeleted = DomainEvent<'allocation.ArqDeleted', { readonly uuid: string; readonly projectId: string; readonly deletedAt: string }>;

export type ArqEvent = ArqCreated | ArqBindStarted | ArqBound | ArqBindFailed | ArqUnbound | ArqDeleted;

export const ARQ_EVENT_TYPES = [
  'allocation.ArqCreated',
  'allocation.ArqBindStarted',
  'allocation.ArqBound',
  'allocation.ArqBindFailed',
  'allocation.ArqUnbound',
  'allocation.ArqDeleted',
] as const satisfies readonly ArqEvent['type'][];

/** The stream of one accelerator request: it guards its own state machine. */
export const arqStream = (uuid: string): string => `arq-${uuid}`;
