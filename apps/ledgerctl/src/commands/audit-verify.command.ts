import { type Command, InvalidArgumentError } from 'commander';
import { type AnchoredVerdict, verifyAgainstRecords } from '@ledger/eventstore';
import { auditorCheckpointRecords, joinedRecords, liveCheckpointRecords, verifyingKey } from '../support/checkpoint-sources';
import { cliConfig } from '../support/config';
import { openSource } from '../support/event-source';
import { Progress } from '../support/progress';

interface VerifyOptions {
  file?: string;
  publicKey?: string;
  checkpoints?: string;
  json?: boolean;
  quiet?: boolean;
  threads?: number;
}

/**
 * `audit verify`: walks the whole hash chain (live store or an export)
 * against the signed head checkpoints it can find (the export's header, the
 * data dir's file and published copy, `--checkpoints`), and names the first
 * broken position: an edit, a rewrite with recomputed hashes up to the
 * newest checkpoint, or a cut tail. Accepted rollbacks found beside them
 * give up the checkpoints they cover and are named in the verdict.
 * Exit 0 when intact, 1 when broken.
 */
export function registerAuditVerify(audit: Command): void {
  audit
    .command('verify')
    .description('check the hash chain and the signed checkpoints of the whole log; names the first broken position')
    .option('--file <export.jsonl>', 'verify an export instead of the live store')
    .option('--public-key <file.pem>', "an auditor-held copy of the checkpoint key (default: the data dir's)")
    .option('--checkpoints <file.jsonl>', 'also check against these signed checkpoints and accepted rollbacks (e.g. the published copy, or the Kafka topic consumed into a file)')
    .option('--json', 'print the verdict as JSON')
    .option('--quiet', 'no progress on stderr')
    .option('--threads <n>', 'worker threads verifying ranges of the log at once (default LEDGER_AUDIT_VERIFY_THREADS; 0: one per core)', parseThreads)
    .action(async (options: VerifyOptions) => {
      const config = cliConfig();
      const source = await openSource(options.file);
      const records = joinedRecords(
        await source.checkpointRecords(),
        options.file ? { checkpoints: [], acceptances: [] } : liveCheckpointRecords(config),
        options.checkpoints ? auditorCheckpointRecords(options.checkpoints) : { checkpoints: [], acceptances: [] },
      );
      const publicKey = verifyingKey(config, options.publicKey);
      const progress = new Progress(`verifying ${source.description}`, source.total, options.quiet);
      let verdict: AnchoredVerdict;
      try {
        const threads = options.threads ?? config.auditVerifyThreads;
        verdict = await verifyAgainstRecords(records, publicKey, (checkpoints) => source.verify(checkpoints, publicKey, { threads, onProgress: (seen) => progress.update(seen) }));
      } finally {
        await source.close();
      }
      progress.done(verdict.checked);
      process.stdout.write(options.json ? `${JSON.stringify(verdict)}\n` : describe(verdict));
      process.exitCode = verdict.ok ? 0 : 1;
    });
}

/** `--threads`: a whole number from 0 (one per core) to 256. */
export function parseThreads(value: string): number {
  const threads = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(threads <= 256)) throw new InvalidArgumentError('expected a whole number of threads from 0 (one per core) to 256');
  return threads;
}

function describe(verdict: AnchoredVerdict): string {
  const anchoring = verdict.anchor
    ? `anchored by the checkpoint at position ${verdict.anchor.position} (signed ${verdict.anchor.at}); ${verdict.unanchored} later events are not yet signed`
    : 'NOT anchored: no signed checkpoint verified, so a rewrite with recomputed hashes or a cut tail would not be seen';
  const rollbacks = (verdict.rollbacks ?? []).map(
    (rollback) => `rollback accepted by ${rollback.by} at ${rollback.at}: the log was put back to position ${rollback.to}, giving up the signed head ${rollback.signedHead} (${rollback.reason})\n`,
  );
  if (verdict.ok) {
    return `chain intact: ${verdict.checked} events; head position ${verdict.headPosition}, head hash ${verdict.headHash}\n${anchoring}\n${rollbacks.join('')}`;
  }
  const broken = verdict.firstBreak!;
  const where = broken.eventId ? `position ${broken.position} (event ${broken.eventId})` : `position ${broken.position}`;
  return `chain BROKEN at ${where}: ${broken.reason} — ${broken.detail}\nlast good position ${verdict.headPosition}, hash ${verdict.headHash}\n`;
}
