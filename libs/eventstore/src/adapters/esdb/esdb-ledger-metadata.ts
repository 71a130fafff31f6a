import type { MetadataType, RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import type { EventMetadata, RecordedEvent } from '../../envelope';
import { versionOfRevision } from './esdb-revision';

/**
 * What the ledger adds to an EventStoreDB event's metadata: the caller's
 * metadata and the fields EventStoreDB does not have (the ledger's gap-free
 * position, the time the hash covers, the chain). `$correlationId` and
 * `$causationId` are EventStoreDB's own names, copied so its projections and
 * UI can follow a conversation.
 */
export interface EsdbLedgerMetadata {
  readonly $correlationId: string;
  readonly $causationId?: string;
  readonly ledger: {
    readonly position: number;
    readonly recordedAt: string;
    readonly prevHash: string;
    readonly hash: string;
    readonly metadata: EventMetadata;
  };
}

export function toEsdbMetadata(
  metadata: EventMetadata,
  chain: { position: number; recordedAt: string; prevHash: string; hash: string },
): EsdbLedgerMetadata {
  return {
    $correlationId: metadata.correlationId,
    ...(metadata.causationId === null ? {} : { $causationId: metadata.causationId }),
    ledger: { ...chain, metadata },
  };
}

/** The ledger's envelope of an EventStoreDB event, or undefined for anything the ledger did not write (system events, links). */
export function fromEsdbEvent(event: EsdbRecordedEvent): RecordedEvent | undefined {
  if (!event.isJson || !isLedgerMetadata(event.metadata)) return undefined;
  const { ledger } = event.metadata;
  return {
    id: event.id,
    type: event.type,
    stream: event.streamId,
    version: versionOfRevision(event.revision),
    position: ledger.position,
    recordedAt: ledger.recordedAt,
    data: event.data,
    metadata: ledger.metadata,
    prevHash: ledger.prevHash,
    hash: ledger.hash,
  };
}

function isLedgerMetadata(metadata: MetadataType | undefined): metadata is EsdbLedgerMetadata & MetadataType {
  if (metadata === null || typeof metadata !== 'object' || metadata instanceof Uint8Array || Array.isArray(metadata)) return false;
  const ledger = (metadata as { ledger?: unknown }).ledger;
  return typeof ledger === 'object' && ledger !== null && typeof (ledger as { position?: unknown }).position === 'number';
}
