import { createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { openLiveSource } from '../support/event-source';
import { Progress } from '../support/progress';

/**
 * `audit export`: the whole log as JSONL, one recorded event (full envelope
 * with hashes) per line, so it can be verified and replayed offline. Written
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
