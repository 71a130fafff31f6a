import type { RecordedEvent } from '@ledger/eventstore';

/** What a batch of the placement projection's events names: hosts outright, devices and jobs whose host the read model knows. */
export interface PlacementEventKeys {
  readonly hostnames: ReadonlySet<string>;
  readonly deviceUuids: ReadonlySet<string>;
  readonly jobIds: ReadonlySet<string>;
}

/**
 * The keys of the hosts whose desired placement these events change. Host
 * events and a job's request carry the host name; a device's maintenance and
 * health carry only the device, a job's end only the job. A job request
 * other than `program` changes no provider.
 */
export function placementEventKeys(events: readonly RecordedEvent[]): PlacementEventKeys {
  const hostnames = new Set<string>();
  const deviceUuids = new Set<string>();
  const jobIds = new Set<string>();
  for (const event of events) {
    const data = event.data as { hostname?: string; deviceUuid?: string; jobId?: string; kind?: string };
    if (event.type === 'jobs.JobRequested') {
      if (data.kind === 'program' && data.hostname) hostnames.add(data.hostname);
    } else if (data.hostname) hostnames.add(data.hostname);
    else if (data.deviceUuid) deviceUuids.add(data.deviceUuid);
    else if (data.jobId) jobIds.add(data.jobId);
  }
  return { hostnames, deviceUuids, jobIds };
}
