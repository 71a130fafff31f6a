import type { SqlExecutor } from '@ledger/processing';
import { type SignatureVerdict, signatureStanding } from '@ledger/programming';
import type { BitstreamView, ProvenanceEntry, SigningKeyView } from './bitstreams.views';

interface BitstreamRow {
  bitstream_id: string;
  sha256: string;
  size_bytes: number | string;
  function_id: string;
  interface_id: string;
  vendor: string;
  name: string | null;
  origin: string;
  signature: string;
  registered_at: string;
  registered_by: string;
  retired_at: string | null;
  retire_reason: string | null;
}

const BITSTREAM_COLUMNS =
  'bitstream_id, sha256, size_bytes, function_id, interface_id, vendor, name, origin, signature, registered_at, registered_by, retired_at, retire_reason';

/** Reads of the bitstream read model. */
export class BitstreamQueries {
  constructor(private readonly db: SqlExecutor) {}

  /** Oldest first; retired images too unless `live` is set. */
  async listBitstreams(filter: { readonly live?: boolean; readonly functionId?: string } = {}): Promise<BitstreamView[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.live) where.push('retired_at IS NULL');
    if (filter.functionId !== undefined) {
      args.push(filter.functionId.replace(/-/g, '').toLowerCase());
      where.push(`function_id = $${args.length}`);
    }
    const rows = await this.db.all<BitstreamRow>(
      `SELECT ${BITSTREAM_COLUMNS} FROM bs_bitstreams ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY registered_at, bitstream_id`,
      args,
    );
    const trustedKeyIds = await this.trustedKeyIds();
    return rows.map((row) => bitstreamView(row, trustedKeyIds));
  }

  async getBitstream(bitstreamId: string): Promise<BitstreamView | undefined> {
    const row = await this.db.get<BitstreamRow>(`SELECT ${BITSTREAM_COLUMNS} FROM bs_bitstreams WHERE bitstream_id = $1`, [bitstreamId.toLowerCase()]);
    return row ? bitstreamView(row, await this.trustedKeyIds()) : undefined;
  }

  /** Keys are few: reading them all is cheaper than picking the signing key out of each row's signature JSON in SQL. */
  private async trustedKeyIds(): Promise<Set<string>> {
    const rows = await this.db.all<{ key_id: string }>('SELECT key_id FROM bs_signing_keys WHERE revoked_at IS NULL');
    return new Set(rows.map((row) => row.key_id));
  }

  async listSigningKeys(): Promise<SigningKeyView[]> {
    const rows = await this.db.all<{
      key_id: string;
      algorithm: SigningKeyView['algorithm'];
      public_key_pem: string;
      label: string | null;
      trusted_at: string;
      revoked_at: string | null;
    }>('SELECT key_id, algorithm, public_key_pem, label, trusted_at, revoked_at FROM bs_signing_keys ORDER BY trusted_at, key_id');
    return rows.map((row) => ({
      keyId: row.key_id,
      algorithm: row.algorithm,
      publicKeyPem: row.public_key_pem,
      label: row.label,
      state: row.revoked_at === null ? 'trusted' : 'revoked',
      trustedAt: row.trusted_at,
      revokedAt: row.revoked_at,
    }));
  }

  /** Every completed load into the device's regions, newest first. */
  async provenance(deviceUuid: string): Promise<ProvenanceEntry[]> {
    const rows = await this.db.all<{
      job_id: string;
      hostname: string;
      deployable_uuid: string;
      region: string | null;
      bitstream_id: string | null;
      known_by_sha256: string | null;
      project: string | null;
      requested_by: string;
      correlation_id: string;
      loaded_at: string;
      function_id: string | null;
      sha256: string | null;
      previous_function_id: string | null;
    }>(
      // An image loaded by url is still recognised when the ledger registered the same bytes.
      `SELECT j.job_id, j.hostname, j.deployable_uuid, j.region, j.bitstream_id, b.bitstream_id AS known_by_sha256, j.project, j.requested_by,
              j.correlation_id, j.loaded_at, j.function_id, j.sha256, j.previous_function_id
       FROM bs_program_jobs j LEFT JOIN bs_bitstreams b ON b.sha256 = j.sha256
       WHERE j.device_uuid = $1 AND j.loaded_at IS NOT NULL
       ORDER BY j.loaded_at DESC, j.job_id DESC`,
      [deviceUuid.toLowerCase()],
    );
    return rows.map((row) => ({
      deployableUuid: row.deployable_uuid,
      region: row.region,
      bitstreamId: row.bitstream_id ?? row.known_by_sha256,
      sha256: row.sha256,
      functionId: row.function_id,
      previousFunctionId: row.previous_function_id,
      loadedAt: row.loaded_at,
      jobId: row.job_id,
      hostname: row.hostname,
      correlationId: row.correlation_id,
      project: row.project,
      requestedBy: row.requested_by,
    }));
  }
}

function bitstreamView(row: BitstreamRow, trustedKeyIds: ReadonlySet<string>): BitstreamView {
  return {
    bitstreamId: row.bitstream_id,
    sha256: row.sha256,
    sizeBytes: Number(row.size_bytes),
    functionId: row.function_id,
    interfaceId: row.interface_id,
    vendor: row.vendor,
    name: row.name,
    origin: JSON.parse(row.origin) as BitstreamView['origin'],
    signature: signatureStanding(JSON.parse(row.signature) as SignatureVerdict, trustedKeyIds),
    state: row.retired_at === null ? 'registered' : 'retired',
    registeredAt: row.registered_at,
    registeredBy: row.registered_by,
    retiredAt: row.retired_at,
    retireReason: row.retire_reason,
  };
}
