import type { SqlDatabase } from '@ledger/processing';

/** Reads of the accelerator-request read model. */
export class ArqQueries {
  constructor(private readonly db: SqlDatabase) {}

  /** Requests (in any state) that still reference a device profile: such a profile cannot be deleted. */
  async countLiveByProfile(profileUuid: string): Promise<number> {
    const row = await this.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM arq_requests WHERE device_profile_uuid = $1', [
      profileUuid,
    ]);
    return Number(row?.n ?? 0);
  }
}
