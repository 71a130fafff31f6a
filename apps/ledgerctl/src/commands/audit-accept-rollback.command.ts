import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { dataFiles, eventStoreOptions } from '@ledger/config';
import { appendRollbackAcceptanceLine, openEventStore, signRollbackAcceptance } from '@ledger/eventstore';
import { CliError } from '../support/cli-error';
import { ledgerCheckpointKeys, liveCheckpointFiles, liveLogCut } from '../support/checkpoint-sources';
import { cliConfig } from '../support/config';

interface AcceptRollbackOptions {
  to: string;
  reason: string;
  by?: string;
}

/**
 * `audit accept-rollback --to HEAD --reason WHY`: the operator's record
 * that the store was rolled back below its signed head on purpose (a
 * restored backup): signed with the checkpoint key and appended to the
 * data dir's `checkpoints.jsonl` and the published copy, with who, when
 * and why. Until it is there, a ledger on that store is not ready, signs
 * no checkpoint and `audit export` refuses (docs/operations.md).
 */
export function registerAuditAcceptRollback(audit: Command): void {
  audit
    .command('accept-rollback')
    .description("record that the store's head below its signed head is accepted (a restored backup): who, when, why")
    .requiredOption('--to <position>', "the store's head now: what the operator accepts the log ends at")
    .requiredOption('--reason <text>', 'why the events above it are gone (kept in the record)')
    .option('--by <name>', 'who accepts (default: the OS user)')
    .action(async (options: AcceptRollbackOptions) => {
      if (!/^\d+$/.test(options.to)) throw new CliError(`--to ${options.to} is not a position (digits)`, 2);
      const reason = options.reason.trim();
      if (reason === '') throw new CliError('--reason must say why the events are gone', 2);
      const config = cliConfig();
      const keys = ledgerCheckpointKeys(config);
      if (!keys) throw new CliError(`no checkpoint key at ${dataFiles(config).checkpointKey}: nothing was ever signed here`, 2);
      const store = await openEventStore(eventStoreOptions(config));
      const head = await store.headPosition().finally(() => store.close());
      const cut = liveLogCut(config, head);
      if (!cut) throw new CliError(`nothing to accept: the store's head ${head} is not below a signed checkpoint`);
      if (Number(options.to) !== head) throw new CliError(`--to ${options.to}: the store's head is ${head}; accept what the store holds`, 2);
      if (cut.accepted) {
        process.stdout.write(`already accepted by ${cut.accepted.by} at ${cut.accepted.at} (${cut.accepted.reason})\n`);
        return;
      }
      const by = options.by ?? userInfo().username;
      const acceptance = signRollbackAcceptance({ to: head, signedHead: cut.signedHead, by, reason, at: new Date().toISOString() }, keys.privateKey);
      const files = liveCheckpointFiles(config);
      for (const file of files) appendRollbackAcceptanceLine(file, acceptance);
      process.stdout.write(`accepted the rollback from the signed head ${cut.signedHead} to position ${head}, by ${by}: recorded in ${files.join(' and ')}\n`);
    });
}
