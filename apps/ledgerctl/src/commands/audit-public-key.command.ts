import type { Command } from 'commander';
import { dataFiles } from '@ledger/config';
import { publicKeyPem } from '@ledger/eventstore';
import { CliError } from '../support/cli-error';
import { ledgerCheckpointKeys } from '../support/checkpoint-sources';
import { cliConfig } from '../support/config';

/**
 * `audit public-key`: the public half of the key that signs head
 * checkpoints, as PEM. An auditor keeps a copy and verifies with
 * `--public-key`, so swapping the key in the data dir is noticed.
 */
export function registerAuditPublicKey(audit: Command): void {
  audit
    .command('public-key')
    .description('print the public key (PEM) that verifies the signed head checkpoints')
    .action(() => {
      const config = cliConfig();
      const keys = ledgerCheckpointKeys(config);
      if (!keys) throw new CliError(`no checkpoint key at ${dataFiles(config).checkpointKey}: the ledger creates it when it first starts`);
      process.stdout.write(publicKeyPem(keys.publicKey));
    });
}
