import type { Projection } from '@ledger/processing';
import { arqProjection } from '@ledger/projections/arqs';
import { bitstreamsProjection } from '@ledger/projections/bitstreams';
import { deviceHistoryProjection } from '@ledger/projections/device-history';
import { deviceProfilesProjection } from '@ledger/projections/device-profiles';
import { inventoryProjection } from '@ledger/projections/inventory';
import { jobsProjection } from '@ledger/projections/jobs';
import { placementProjection } from '@ledger/projections/placement';
import { quotaProjection } from '@ledger/projections/quota';
import { workflowsProjection } from '@ledger/workflows';

/** Every read model an auditor can rebuild as of a point of the log (`audit replay --projection`, `?asOf=`), by name. */
export const REPLAYABLE_PROJECTIONS: ReadonlyMap<string, Projection> = new Map(
  [
    inventoryProjection,
    deviceProfilesProjection,
    quotaProjection,
    arqProjection,
    jobsProjection,
    placementProjection,
    bitstreamsProjection,
    workflowsProjection,
    deviceHistoryProjection,
  ].map((projection) => [projection.name, projection]),
);
