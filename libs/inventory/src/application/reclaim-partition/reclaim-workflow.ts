import { NAMESPACE_LEDGER, uuidV5 } from '@ledger/kernel';
import { commandsOf, defineStepWorkflow, delayedStart, jobResultRoute, type WorkflowCommand } from '@ledger/workflows';
import type { PartitionIdle } from '../../domain/inventory.events';
import type { ClaimReclaim, ReleaseReclaim } from '../../domain/partitioning/partition-reclaim';

export const RECLAIM_WORKFLOW = 'reclaim';

/** What a reclaim starts with: the PartitionIdle that began the idle period. */
export type ReclaimStart = PartitionIdle['data'];

/** The commands the reclaim sends: the device's stream takes and gives back the partition's handle. */
export type ReclaimCommand =
  | WorkflowCommand<'inventory.ClaimReclaim', Omit<ClaimReclaim, 'type' | 'at'>>
  | WorkflowCommand<'inventory.ReleaseReclaim', Omit<ReleaseReclaim, 'type'>>;

const command = commandsOf<ReclaimCommand>();

/** One reclaim per idle period of a partition's handle: the PartitionIdle names it, so a re-delivered one starts nothing new. */
export const reclaimIdOf = (data: Pick<ReclaimStart, 'deviceUuid' | 'handleUuid' | 'idleCount'>): string =>
  uuidV5(NAMESPACE_LEDGER, `partition-reclaim:${data.deviceUuid}:${data.handleUuid}:${data.idleCount}`);

const isIdle = (data: unknown): data is ReclaimStart => typeof data === 'object' && data !== null && (data as ReclaimStart).afterClean === false;

/**
 * Gives an idle partition carved on demand back to its parent
 * (docs/partitions.md, "Reclaim"): after the idle wait, the device's stream
 * claims its handle for the reclaim (refused if a bind used it meanwhile:
 * the reclaim ends, nothing done), then the agent's destroy job; the job's
 * result is recorded on the device's stream by the job-facts reactor
 * (PartitionDestroyed, reason `reclaimed`). A destroy that fails gives the
 * handle back, and the partition is offered again.
 */
const reclaimSteps = defineStepWorkflow<ReclaimStart, ReclaimCommand>({
  name: RECLAIM_WORKFLOW,
  routes: [
    {
      types: ['inventory.PartitionIdle'],
      starts: true,
      workflowId: (event) => (isIdle(event.data) ? reclaimIdOf(event.data) : undefined),
    },
    jobResultRoute(RECLAIM_WORKFLOW),
  ],
  start: (input) => (input.kind === 'event' && isIdle(input.data) ? input.data : undefined),
  steps: [
    {
      name: 'claim-partition',
      do: ({ data }) => command('inventory.ClaimReclaim', { deviceUuid: data.deviceUuid, handleUuid: data.handleUuid, reclaimId: reclaimIdOf(data), idleCount: data.idleCount }),
      compensate: ({ data }) => command('inventory.ReleaseReclaim', { deviceUuid: data.deviceUuid, handleUuid: data.handleUuid, reclaimId: reclaimIdOf(data) }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 1 },
    },
    {
      name: 'destroy-partition',
      do: ({ data }) => ({
        kind: 'job',
        job: { hostname: data.hostname, kind: 'destroy', params: { deviceUuid: data.deviceUuid, pciAddress: data.pciAddress, handle: data.handle, reason: 'reclaimed' } },
      }),
      timeoutMs: 600_000,
      // A second destroy of a partition already gone answers `changed: false`; once given up, the handle is given back.
      retry: { maxAttempts: 2 },
    },
  ],
});

/** The reclaim, started the idle wait after its PartitionIdle (a durable timer: a crash during the wait loses nothing). */
export const reclaimWorkflow = delayedStart(reclaimSteps, (start) => (isIdle(start.data) ? start.data.idleMs : undefined));
