import type { RecordedEvent } from '@ledger/eventstore';
import { isShellProgram, type JobCompleted, type JobParams, type JobRequested, JobEventTypes, type ProgramParams } from '@ledger/jobs';
import type { Projection, SqlExecutor } from '@ledger/processing';
import { BITSTREAM_STREAM_CATEGORY, PROGRAMMING_EVENT_TYPES, type ProgrammingEvent, SIGNING_KEYS_STREAM_CATEGORY } from '@ledger/programming';
import { createBitstreamSchema, emptyBitstreamTables } from './bitstreams.schema';

/**
 * Bitstreams, trusted keys, and provenance: which image each program job
 * loaded into which region, when, for whom. Images and keys are few and
 * rarely written, so each event is one statement; every write is guarded
 * (a version, `ON CONFLICT DO NOTHING`, or `loaded_at IS NULL`) so that a
 * redelivered event changes nothing.
 */
export const bitstreamsProjection: Projection = {
  name: 'bitstreams',
  version: 1,
  handles: [...PROGRAMMING_EVENT_TYPES, JobEventTypes.JobRequested, JobEventTypes.JobCompleted],
  filter: { categories: [BITSTREAM_STREAM_CATEGORY, SIGNING_KEYS_STREAM_CATEGORY, 'job'] },
  setup: createBitstreamSchema,
  reset: emptyBitstreamTables,
  async apply(events, tx) {
    for (const event of events) await applyEvent(event as RecordedEvent & (ProgrammingEvent | JobRequested | JobCompleted), tx);
  },
};

async function applyEvent(event: RecordedEvent & (ProgrammingEvent | JobRequested | JobCompleted), tx: SqlExecutor): Promise<void> {
  switch (event.type) {
    case 'programming.BitstreamRegistered': {
      const data = event.data;
      await tx.run(
        `INSERT INTO bs_bitstreams (bitstream_id, sha256, size_bytes, function_id, interface_id, vendor, name, origin, signature, registered_at, registered_by, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (bitstream_id) DO NOTHING`,
        [
          data.bitstreamId,
          data.sha256,
          data.sizeBytes,
          data.functionId,
          data.interfaceId,
          data.vendor,
          data.name,
          JSON.stringify(data.origin),
          JSON.stringify(data.signature),
          data.registeredAt,
          event.metadata.actor.user,
          event.version,
        ],
      );
      return;
    }
    case 'programming.BitstreamRetired':
      await tx.run('UPDATE bs_bitstreams SET retired_at = $1, retire_reason = $2, version = $3 WHERE bitstream_id = $4 AND version < $3', [
        event.data.retiredAt,
        event.data.reason,
        event.version,
        event.data.bitstreamId,
      ]);
      return;
    case 'programming.SigningKeyTrusted': {
      const { keyId, algorithm, publicKeyPem, label, trustedAt } = event.data;
      await tx.run(
        `INSERT INTO bs_signing_keys (key_id, algorithm, public_key_pem, label, trusted_at, revoked_at, version) VALUES ($1, $2, $3, $4, $5, NULL, $6)
         ON CONFLICT (key_id) DO UPDATE SET label = excluded.label, trusted_at = excluded.trusted_at, revoked_at = NULL, version = excluded.version
         WHERE bs_signing_keys.version < excluded.version`,
        [keyId, algorithm, publicKeyPem, label, trustedAt, event.version],
      );
      return;
    }
    case 'programming.SigningKeyRevoked':
      await tx.run('UPDATE bs_signing_keys SET revoked_at = $1, version = $2 WHERE key_id = $3 AND version < $2', [
        event.data.revokedAt,
        event.version,
        event.data.keyId,
      ]);
      return;
    case 'jobs.JobRequested': {
      // Provenance is of regions (the functions they held); a shell load names no region, and the device stream records it (ShellProgrammed).
      if (event.data.kind !== 'program' || isShellProgram(event.data.params as JobParams)) return;
      const params = event.data.params as ProgramParams;
      const { actor, correlationId } = event.metadata;
      await tx.run(
        `INSERT INTO bs_program_jobs (job_id, hostname, device_uuid, deployable_uuid, region, bitstream_id, project, requested_by, correlation_id, requested_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (job_id) DO NOTHING`,
        [
          event.data.jobId,
          event.data.hostname,
          params.deviceUuid,
          params.deployableUuid,
          params.region ?? null,
          params.bitstreamId ?? null,
          actor.project,
          actor.user,
          correlationId,
          event.data.requestedAt,
        ],
      );
      return;
    }
    case 'jobs.JobCompleted': {
      // Only program jobs have a row; for any other job this matches nothing.
      const evidence = event.data.evidence;
      await tx.run(
        `UPDATE bs_program_jobs SET loaded_at = $1, function_id = $2, sha256 = $3, previous_function_id = $4
         WHERE job_id = $5 AND loaded_at IS NULL`,
        [event.data.completedAt, textOrNull(evidence.functionId), textOrNull(evidence.sha256), textOrNull(evidence.previousFunctionId), event.data.jobId],
      );
      return;
    }
  }
}

/** Evidence is the agent's JSON: take a member only when it is the text it should be. */
const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value.length <= 256 ? value : null);
