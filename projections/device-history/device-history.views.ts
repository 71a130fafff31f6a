/** One holding of a device: an attach handle claimed by a request, until its release (open while `to` is null). */
export interface TenancyView {
  readonly deviceUuid: string;
  readonly deployableUuid: string;
  readonly attachHandleUuid: string;
  readonly region: string | null;
  readonly arqUuid: string;
  readonly instanceUuid: string | null;
  readonly projectId: string | null;
  readonly deviceProfile: { readonly uuid: string; readonly name: string } | null;
  readonly bitstreamId: string | null;
  readonly from: { readonly position: number; readonly time: string };
  readonly to: { readonly position: number; readonly time: string } | null;
}

/** One event that touched a device, as its timeline lists it. */
export interface TimelineEntry {
  readonly position: number;
  readonly type: string;
  readonly recordedAt: string;
  readonly actor: string;
  /** Whose use of the device the event belongs to; null for the operator's own events (discovery, maintenance). */
  readonly projectId: string | null;
  readonly summary: string;
}

export interface TimelinePage {
  readonly entries: readonly TimelineEntry[];
  /** Pass as `after` for the next page; null on the last. */
  readonly next: number | null;
}
