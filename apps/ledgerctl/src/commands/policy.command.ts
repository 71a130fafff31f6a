import type { Command } from 'commander';
import { type EffectiveRule, loadPolicyEnforcer } from '@ledger/auth';
import { cliConfig, cliSetting } from '../support/config';
import { formatTable } from '../support/text-table';

export const POLICY_DESCRIPTION = "the v2 API's policy rules: Cyborg's defaults and the overrides of LEDGER_POLICY_FILE";

type ShowOptions = { readonly file?: string; readonly json?: boolean };

/**
 * `policy show [--file F] [--json]`: every rule as the ledger would enforce
 * it, read and checked as at start-up (a fault exits 2 naming the file and
 * the rule), without a running ledger.
 */
export function registerPolicyCommands(program: Command): void {
  const policy = program.command('policy').description(POLICY_DESCRIPTION);
  policy
    .command('show')
    .description('print the effective rules: name, source (default, or file when the policy file overrides it), rule')
    .option('--file <policy.yaml>', 'the policy file to read (default: $LEDGER_POLICY_FILE; without either, the defaults)')
    .option('--json', 'print JSON: per rule its name, rule, source, default, description and operations')
    .action((options: ShowOptions) => {
      const file = options.file ?? cliConfig().policyFile;
      const { effective } = cliSetting(() => loadPolicyEnforcer(file));
      process.stdout.write(options.json ? `${JSON.stringify(effective)}\n` : formatPolicyTable(effective));
    });
}

export function formatPolicyTable(rules: readonly EffectiveRule[]): string {
  const shown = (rule: string) => (rule === '' ? '"" (always)' : rule);
  return formatTable(['NAME', 'SOURCE', 'RULE'], rules.map((rule) => [rule.name, rule.source, shown(rule.rule)]));
}
