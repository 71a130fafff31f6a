import type { RecordedEvent } from '../envelope';

/**
 * An event as a store holds it: data and metadata still the JSON text that
 * was written, so a verifier can hash that text without decoding it.
 * Fields come from the database as they are; a tampered row may hold other
 * types, which the verifier checks before trusting them.
 */
export interface StoredEvent extends Omit<RecordedEvent, 'data' | 'metadata'> {
  readonly dataJson: string;
  readonly metadataJson: string;
}

export const isStoredEvent = (event: RecordedEvent | StoredEvent): event is StoredEvent => 'dataJson' in event;

/** The event a reader gets back; throws when the stored text is not JSON. */
export const decodeStoredEvent = ({ dataJson, metadataJson, ...rest }: StoredEvent): RecordedEvent => ({
  ...rest,
  data: JSON.parse(dataJson),
  metadata: JSON.parse(metadataJson),
});
