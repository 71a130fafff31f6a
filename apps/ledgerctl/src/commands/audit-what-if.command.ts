import type { Command } from 'commander';
import { type PlacedQuotaEvent, QUOTA_EVENT_TYPES, type WhatIfRefusal } from '@ledger/quota';
import { openSource } from '../support/event-source';
import { Progress } from '../support/progress';
import { readQuotaPolicy } from '../support/quota-policy-file';
import { cell, formatTable } from '../support/text-table';

const QUOTA_TYPES = new Set<string>(QUOTA_EVENT_TYPES);

/**
 * `audit what-if --quota FILE`: replays every recorded quota reservation
 * (one per accelerator request created) against another policy and lists
 * the requests it would have refused. One pass over the log, in memory.
 */
export function registerAuditWhatIf(audit: Command): void {
  audit
    .command('what-if')
    .description('replay the requests against another quota policy (JSON file) and list those it would have refused')
    .requiredOption('--quota <file.json>', 'per project the body of PUT /api/v1/quotas/{project}: {"p1": {"limits": {"FPGA": 2}}}')
    .option('--file <export.jsonl>', 'replay an export instead of the live store')
    .option('--json', 'print the refusals as JSON')
    .option('--quiet', 'no progress on stderr')
    .action(async (options: { quota: string; file?: string; json?: boolean; quiet?: boolean }) => {
      const whatIf = readQuotaPolicy(options.quota);
      const source = await openSource(options.file);
      const progress = new Progress(`replaying quota from ${source.description}`, source.total, options.quiet);
      let last = 0;
      try {
        for await (const batch of source.batches()) {
          for (const event of batch) if (QUOTA_TYPES.has(event.type)) whatIf.apply(event as unknown as PlacedQuotaEvent);
          last = batch[batch.length - 1]?.position ?? last;
          progress.update(last);
        }
      } finally {
        await source.close();
      }
      progress.done(last);
      process.stdout.write(options.json ? `${JSON.stringify({ position: last, refusals: whatIf.refusals })}\n` : describe(whatIf.refusals, last));
    });
}

function describe(refusals: readonly WhatIfRefusal[], position: number): string {
  if (refusals.length === 0) return `no request up to position ${position} would have been refused\n`;
  const rows = refusals.map((r) => [r.consumerId, r.project, r.recordedAt, cell(r.position), r.resource, `${r.inUse}+${r.requested} > ${r.limit}`]);
  return `${refusals.length} request(s) up to position ${position} would have been refused\n${formatTable(['REQUEST', 'PROJECT', 'TIME', 'POSITION', 'RESOURCE', 'IN USE+ASKED > LIMIT'], rows)}`;
}
