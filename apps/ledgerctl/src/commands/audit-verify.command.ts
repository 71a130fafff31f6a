import type { Command } from 'commander';
import { ChainVerifier } from '@ledger/eventstore';
import { openSource } from '../support/event-source';
import { Progress } from '../support/progress';

/**
 * `audit verify`: walks the whole hash chain (live store or an export) and
 * names the first broken position. Exit 0 when intact, 1 when broken.
 */
export function registerAuditVerify(audit: Command): void {
  audit
    .command('verify')
    .description('check the hash chain of the whole log; names the first broken position')
    .option('--file <export.jsonl>', 'verify an export instead of the live store')
    .option('--json', 'print the verdict as JSON')
    .option('--quiet', 'no progress on stderr')
    .action(async (options: { file?: string; json?: boolean; quiet?: boolean }) => {
      const source = await openSource(options.file);
      const verifier = new ChainVerifier();
      const progress = new Progress(`verifying ${source.description}`, source.total, options.quiet);
      let seen = 0;
      try {
        outer: for await (const batch of source.batches()) {
          for (const event of batch) {
            seen++;
            if (!verifier.check(event)) break outer;
          }
          progress.update(seen);
        }
      } finally {
        await source.close();
      }
      progress.done(seen);
      const verdict = verifier.verdict();
      if (options.json) {
        process.stdout.write(`${JSON.stringify(verdict)}\n`);
      } else if (verdict.ok) {
        process.stdout.write(`chain intact: ${verdict.checked} events; head position ${verdict.headPosition}, head hash ${verdict.headHash}\n`);
      } else {
        const broken = verdict.firstBreak!;
        process.stdout.write(
          `chain BROKEN at position ${broken.position} (event ${broken.eventId}): ${broken.reason} — ${broken.detail}\n` +
            `last good position ${verdict.headPosition}, hash ${verdict.headHash}\n`,
        );
      }
      process.exitCode = verdict.ok ? 0 : 1;
    });
}
