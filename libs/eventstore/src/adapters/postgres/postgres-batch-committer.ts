import type { Pool } from 'pg';
import { InvalidAppendError } from '../../errors/invalid-append.error';
import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type { AppendResult } from '../../event-store.port';
import type { CommitOutcome } from '@ledger/kernel';
import type { PreparedAppend } from '../shared/prepared-append';

/** What `ledger_append` says about one append (see ledger-append.sql). */
type LedgerAppendResult = { version: number; position: string | number } | { conflict: number } | { duplicate: string };

/** One round trip for a whole batch: every append, its expected version, its events and their content hashes. */
export function postgresBatchCommitter(pool: Pool): (appends: readonly PreparedAppend[]) => Promise<readonly CommitOutcome<AppendResult>[]> {
  return async (appends) => {
    // Written as text so that the JSON each event was hashed over goes out verbatim.
    const batch = `[${appends.map(appendJson).join(',')}]`;
    const { rows } = await pool.query<{ results: LedgerAppendResult[] }>('SELECT ledger_append($1::jsonb) AS results', [batch]);
    return rows[0].results.map((result, index) => toOutcome(appends[index], result));
  };
}

function appendJson(append: PreparedAppend): string {
  const events = append.events.map(
    (event) =>
      `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"recorded_at":${JSON.stringify(event.recordedAt)},` +
      `"content_hash":${JSON.stringify(event.contentHash)},"data":${event.dataJson},"metadata":${event.metadataJson}}`,
  );
  return `{"stream":${JSON.stringify(append.stream)},"expected":${JSON.stringify(append.expected)},"events":[${events.join(',')}]}`;
}

function toOutcome(append: PreparedAppend, result: LedgerAppendResult): CommitOutcome<AppendResult> {
  if ('conflict' in result) {
    return { error: new WrongExpectedVersionError(append.stream, append.expected, result.conflict) };
  }
  if ('duplicate' in result) {
    return { error: new InvalidAppendError(`event id ${result.duplicate} is already recorded`, { stream: append.stream, id: result.duplicate }) };
  }
  return { result: { stream: append.stream, version: result.version, position: Number(result.position) } };
}
