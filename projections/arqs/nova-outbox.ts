import type { RecordedEvent } from '@ledger/eventstore';
import type { SqlExecutor } from '@ledger/processing';

/**
 * Nova waits at most `arq_binding_timeout` (300 s) for its events; older
 * resolutions are not worth telling, which also keeps a rebuild of the
 * projection from replaying years of notifications.
 */
export const NOVA_EVENT_HORIZON_MS = 10 * 60_000;

/**
 * After a request resolved (Bound or BindFailed): if every request of its
 * instance is now resolved, queue one `accelerator-request-bound` per
 * request (CYBORG-V2.md §7). Keyed by the resolving event's position, so a
 * redelivered batch queues nothing twice.
 */
export async function enqueueNovaEventsIfResolved(tx: SqlExecutor, resolving: RecordedEvent, now: number): Promise<void> {
  if (now - Date.parse(resolving.recordedAt) > NOVA_EVENT_HORIZON_MS) return;
  const { uuid } = resolving.data as { uuid: string };
  const row = await tx.get<{ instance_uuid: string | null }>('SELECT instance_uuid FROM arq_requests WHERE uuid = $1', [uuid]);
  if (!row?.instance_uuid) return;
  const siblings = await tx.all<{ uuid: string; state: string }>('SELECT uuid, state FROM arq_requests WHERE instance_uuid = $1', [row.instance_uuid]);
  if (siblings.some((arq) => arq.state !== 'Bound' && arq.state !== 'BindFailed')) return;
  const at = new Date(now).toISOString();
  for (const arq of siblings) {
    await tx.run(
      `INSERT INTO arq_nova_outbox (id, instance_uuid, arq_uuid, status, enqueued_at, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (id) DO NOTHING`,
      [`${resolving.position}:${arq.uuid}`, row.instance_uuid, arq.uuid, arq.state === 'Bound' ? 'completed' : 'failed', at],
    );
  }
}
