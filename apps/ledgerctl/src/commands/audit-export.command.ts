import { createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { type LogCut, LogCutBelowSignedHeadError, type RecordedEvent, type SignedCheckpoint, signCheckpoint } from '@ledger/eventstore';
import { beyondPoint, type LogPoint, reachedPoint } from '@ledger/processing';
import { ledgerCheckpointKeys, liveCheckpointRecords, liveCheckpoints, liveLogCut } from '../support/checkpoint-sources';
import { cliConfig } from '../support/config';
import { type EventSource, openLiveSource } from '../support/event-source';
import { Progress } from '../support/progress';
import { cliLogPoint } from '../support/cli-log-point';

interface ExportOptions {
  out: string;
  from?: string;
  to?: string;
  allowCut?: boolean;
  quiet?: boolean;
}

/**
 * `audit export`: the whole log as JSONL, one recorded event (full envelope
 * with hashes) per line, so it can be verified and replayed offline. The
 * signed checkpoints up to the exported head lead the file, with one signed
 * now at that head when the data dir's key is here, so `audit verify --file`
 * catches a cut or a rewrite of the export itself; the accepted rollbacks
 * follow them (`{"rollbackAccepted": …}` lines). Written
 * to a temporary file and renamed, so a half-written export never looks whole.
 * `--from` / `--to` (positions or times, both ends included) cut a range out
 * for reading and replay: it carries the signed checkpoints inside a range
 * of positions and signs no new one. A store cut below the head its
 * checkpoints signed is refused (AUDIT.LOG_CUT_BELOW_SIGNED_HEAD) unless an
 * operator accepted the rollback or `--allow-cut` says so; its export then
 * carries the later checkpoints too and signs none, so verify names the
 * missing positions.
 */
export function registerAuditExport(audit: Command): void {
  audit
    .command('export')
    .description('write the log (or a range of it) as JSONL, one event per line, for offline verify and replay')
    .requiredOption('--out <file>', 'where to write the export ("-" for stdout)')
    .option('--from <position|time>', 'first event to export: a global position or an ISO-8601 time (default: the first)')
    .option('--to <position|time>', 'last event to export: a global position or an ISO-8601 time (default: the head)')
    .option('--allow-cut', 'export a store cut below its signed head (the export carries the later checkpoints, so verify fails naming the missing positions)')
    .option('--quiet', 'no progress on stderr')
    .action(async (options: ExportOptions) => {
      const from = options.from === undefined ? undefined : cliLogPoint(options.from, '--from');
      const to = options.to === undefined ? undefined : cliLogPoint(options.to, '--to');
      const source = await openLiveSource();
      const cut = liveLogCut(cliConfig(), source.total ?? 0);
      if (cut && !cut.accepted && !options.allowCut) {
        await source.close();
        throw new LogCutBelowSignedHeadError(cut);
      }
      const toStdout = options.out === '-';
      const target = toStdout ? undefined : `${options.out}.partial`;
      const output = target ? createWriteStream(target, 'utf8') : process.stdout;
      const progress = new Progress(`exporting ${source.description}`, source.total, options.quiet);
      let written = 0;
      try {
        const header = from || to ? rangeCheckpoints(source, from, to).map((checkpoint) => JSON.stringify({ checkpoint })) : wholeLogHeader(source, cut);
        if (header.length > 0) output.write(`${header.join('\n')}\n`);
        for await (const batch of source.batches()) {
          const inRange = batch.filter((event) => (!from || reachedPoint(event, from)) && (!to || !beyondPoint(event, to)));
          if (inRange.length > 0 && !output.write(inRange.map((event) => JSON.stringify(event)).join('\n') + '\n')) await once(output, 'drain');
          written += inRange.length;
          progress.update(batch[batch.length - 1].position);
          if (to && pastTheEnd(batch, to)) break;
        }
      } finally {
        await source.close();
      }
      if (target) {
        output.end();
        await once(output, 'finish');
        renameSync(target, options.out);
      }
      progress.done(written);
      if (!toStdout) process.stderr.write(`exported ${written} events to ${options.out}\n`);
    });
}

const pastTheEnd = (batch: readonly RecordedEvent[], to: LogPoint): boolean => batch.length > 0 && beyondPoint(batch[batch.length - 1], to);

/** The data dir's checkpoints inside a range given by positions; a time range carries none (which positions it holds is known only once read). */
function rangeCheckpoints(source: EventSource, from?: LogPoint, to?: LogPoint): SignedCheckpoint[] {
  if ((from && 'time' in from) || (to && 'time' in to)) return [];
  const first = from && 'position' in from ? from.position : 1;
  const last = Math.min(to && 'position' in to ? to.position : Number.POSITIVE_INFINITY, source.total ?? 0);
  return liveCheckpoints(cliConfig()).filter((checkpoint) => checkpoint.position >= first && checkpoint.position <= last);
}

/**
 * A whole log's header: its checkpoints, then every accepted rollback
 * (`{"rollbackAccepted": …}`), so `audit verify --file` reads the
 * rollbacks an operator accepted as the live verify does.
 */
function wholeLogHeader(source: EventSource, cut: LogCut | undefined): string[] {
  const acceptances = liveCheckpointRecords(cliConfig()).acceptances;
  return [...exportCheckpoints(source, cut).map((checkpoint) => JSON.stringify({ checkpoint })), ...acceptances.map((rollbackAccepted) => JSON.stringify({ rollbackAccepted }))];
}

/**
 * The data dir's checkpoints the export can carry, plus one at its head. A
 * cut store's export carries those above its head as well and signs none:
 * a checkpoint is never signed below a signed one.
 */
function exportCheckpoints(source: EventSource, cut: LogCut | undefined): SignedCheckpoint[] {
  const config = cliConfig();
  const head = source.total ?? 0;
  const carried = liveCheckpoints(config).filter((checkpoint) => cut !== undefined || checkpoint.position <= head);
  const keys = ledgerCheckpointKeys(config);
  if (cut || !keys || source.headHash === undefined || carried.some((checkpoint) => checkpoint.position === head)) return carried;
  return [...carried, signCheckpoint({ position: head, hash: source.headHash, at: new Date().toISOString() }, keys.privateKey)];
}
