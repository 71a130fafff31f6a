import { createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { type SignedCheckpoint, signCheckpoint } from '@ledger/eventstore';
import { ledgerCheckpointKeys, liveCheckpoints } from '../support/checkpoint-sources';
import { cliConfig } from '../support/config';
import { type EventSource, openLiveSource } from '../support/event-source';
import { Progress } from '../support/progress';

/**
 * `audit export`: the whole log as JSONL, one recorded event (full envelope
 * with hashes) per line, so it can be verified and replayed offline. The
 * signed checkpoints up to the exported head lead the file, with one signed
 * now at that head when the data dir's key is here, so `audit verify --file`
 * catches a cut or a rewrite of the export itself. Written
 * to a temporary file and renamed, so a half-written export never looks whole.
 */
export function registerAuditExport(audit: Command): void {
  audit
    .command('export')
    .description('write the whole log as JSONL (one event per line) for offline verify and replay')
    .requiredOption('--out <file>', 'where to write the export ("-" for stdout)')
    .option('--quiet', 'no progress on stderr')
    .action(async (options: { out: string; quiet?: boolean }) => {
      const source = await openLiveSource();
      const toStdout = options.out === '-';
      const target = toStdout ? undefined : `${options.out}.partial`;
      const output = target ? createWriteStream(target, 'utf8') : process.stdout;
      const progress = new Progress(`exporting ${source.description}`, source.total, options.quiet);
      let written = 0;
      try {
        const header = exportCheckpoints(source).map((checkpoint) => JSON.stringify({ checkpoint }));
        if (header.length > 0) output.write(`${header.join('\n')}\n`);
        for await (const batch of source.batches()) {
          const chunk = batch.map((event) => JSON.stringify(event)).join('\n') + '\n';
          if (!output.write(chunk)) await once(output, 'drain');
          written += batch.length;
          progress.update(written);
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

/** The data dir's checkpoints the export can carry (those within it), plus one at its head. */
function exportCheckpoints(source: EventSource): SignedCheckpoint[] {
  const config = cliConfig();
  const head = source.total ?? 0;
  const carried = liveCheckpoints(config).filter((checkpoint) => checkpoint.position <= head);
  const keys = ledgerCheckpointKeys(config);
  if (!keys || source.headHash === undefined || carried.some((checkpoint) => checkpoint.position === head)) return carried;
  return [...carried, signCheckpoint({ position: head, hash: source.headHash, at: new Date().toISOString() }, keys.privateKey)];
}
