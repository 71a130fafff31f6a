import type { Pool } from 'pg';
import { InvalidAppendError } from '../../errors/invalid-append.error';
import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type { AppendResult } from '../../event-store.port';
import type { CommitOutcome } from '@ledger/kernel';
import type { AtomicAppend, PreparedAppend } from '../shared/prepared-append';

/** What `ledger_append` says about one unit (see ledger-append.sql). */
type LedgerAppendResult =
  | { appended: { version: number; position: string | number }[] }
  | { stream: string; conflict: number }
  | { stream: string; duplicate: string };

/** One round trip for a whole batch: every unit, its appends, their expected versions, events and content hashes. */
export function postgresBatchCommitter(pool: Pool): (batch: readonly AtomicAppend[]) => Promise<readonly CommitOutcome<AppendResult[]>[]> {
  return async (batch) => {
    // Written as text so that the JSON each event was hashed over goes out verbatim.
    const units = `[${batch.map((appends) => `[${appends.map(appendJson).join(',')}]`).join(',')}]`;
    const { rows } = await pool.query<{ results: LedgerAppendResult[] }>('SELECT ledger_append($1::jsonb) AS results', [units]);
    return rows[0].results.map((result, index) => toOutcome(batch[index], result));
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

function toOutcome(appends: AtomicAppend, result: LedgerAppendResult): CommitOutcome<AppendResult[]> {
  if ('appended' in result) {
    return { result: result.appended.map(({ version, position }, index) => ({ stream: appends[index].stream, version, position: Number(position) })) };
  }
  const refused = appends.find((append) => append.stream === result.stream) as PreparedAppend;
  if ('conflict' in result) {
    return { error: new WrongExpectedVersionError(refused.stream, refused.expected, result.conflict) };
  }
  return { error: new InvalidAppendError(`event id ${result.duplicate} is already recorded`, { stream: refused.stream, id: result.duplicate }) };
}
