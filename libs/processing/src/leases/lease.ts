import { LedgerError } from '@ledger/kernel';
import type { SqlExecutor } from '../sql/sql-database.port';

/**
 * Leases let one instance at a time run a processor when several ledger
 * processes share the read-model database. Expiry is compared with the
 * caller's clock, so instances' clocks must agree to well within a TTL.
 */
export interface LeaseTerms {
  readonly name: string;
  readonly owner: string;
  /** The caller's clock now, in epoch milliseconds. */
  readonly now: number;
  readonly ttlMs: number;
}

/** This instance no longer holds the lease it was working under. */
export class LeaseLostError extends LedgerError {
  constructor(name: string, owner: string) {
    super('PROCESSING.LEASE_LOST', 409, `${owner} no longer holds the lease of ${name}`, { name, owner });
  }
}

/**
 * Takes the lease if it is free, expired or already ours (then renews it),
 * in one conditional upsert so two instances can never both succeed.
 * Resolves to whether the caller holds the lease now.
 */
export async function acquireLease(db: SqlExecutor, terms: LeaseTerms): Promise<boolean> {
  const changed = await db.run(
    `INSERT INTO processor_leases (name, owner, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
     WHERE processor_leases.owner = excluded.owner OR processor_leases.expires_at <= $4`,
    [terms.name, terms.owner, terms.now + terms.ttlMs, terms.now],
  );
  return changed === 1;
}

/**
 * The fence at the start of every batch transaction: extends the lease only
 * if the caller still owns it, and throws otherwise so the batch rolls back.
 * The row stays locked until commit, so no one can take the lease mid-batch.
 */
export async function fenceLease(tx: SqlExecutor, terms: LeaseTerms): Promise<void> {
  const changed = await tx.run('UPDATE processor_leases SET expires_at = $3 WHERE name = $1 AND owner = $2', [
    terms.name,
    terms.owner,
    terms.now + terms.ttlMs,
  ]);
  if (changed !== 1) throw new LeaseLostError(terms.name, terms.owner);
}

/** Gives the lease up so a standby instance takes over without waiting for expiry. */
export async function releaseLease(db: SqlExecutor, name: string, owner: string): Promise<void> {
  await db.run('DELETE FROM processor_leases WHERE name = $1 AND owner = $2', [name, owner]);
}

/**
 * Drops every lease: for a copy of the read models (a backup), which carries
 * the leases its source's processes held. No process holds them in the copy,
 * and a ledger started on it would otherwise stand by until they expire.
 */
export async function releaseAllLeases(db: SqlExecutor): Promise<void> {
  await db.run('DELETE FROM processor_leases');
}
