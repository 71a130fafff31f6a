/** An event's hashed fields with data and metadata already as canonical JSON text. */
export interface CanonicalContentParts {
  readonly id: string;
  readonly type: string;
  readonly recordedAt: string;
  readonly dataJson: string;
  readonly metadataJson: string;
}

/**
 * `canonicalJson({ id, type, recordedAt, data, metadata })` assembled from
 * text: the keys in canonicalJson's sorted order, strings quoted as it quotes
 * them. Writers hash this; a verifier rebuilds it from the stored columns
 * without parsing them (stored-content-hash.ts).
 */
export const canonicalContentText = ({ id, type, recordedAt, dataJson, metadataJson }: CanonicalContentParts): string =>
  `{"data":${dataJson},"id":${JSON.stringify(id)},"metadata":${metadataJson},"recordedAt":${JSON.stringify(recordedAt)},"type":${JSON.stringify(type)}}`;
