import { readYamlSettingFile, settingFileProblem } from '@ledger/config';
import { PolicyEnforcer, UnknownPolicyRulesError } from './policy-enforcer';
import { PolicyRuleError } from './policy-rule-error';

export const POLICY_FILE_SETTING = 'LEDGER_POLICY_FILE';

/**
 * The enforcer for an operator's policy file (oslo.policy's policy.yaml, or
 * its JSON: a map of rule name to rule), or Cyborg's defaults without one.
 * Anything wrong stops start-up: a ConfigError naming the setting, the file
 * and, where there is one, the rule.
 */
export function loadPolicyEnforcer(file: string | undefined): PolicyEnforcer {
  if (file === undefined) return new PolicyEnforcer();
  const overrides = readPolicyFile(file);
  try {
    return new PolicyEnforcer(overrides);
  } catch (error) {
    if (error instanceof PolicyRuleError || error instanceof UnknownPolicyRulesError) throw problem(file, error.message);
    throw error;
  }
}

function readPolicyFile(file: string): Record<string, string> {
  const document = readYamlSettingFile(POLICY_FILE_SETTING, file, 'a policy file');
  if (document === undefined || document === null) return {};
  if (typeof document !== 'object' || Array.isArray(document)) throw problem(file, 'must be a map of rule names to rules (e.g. "cyborg:arq:create": "role:member")');
  const rules: Record<string, string> = {};
  for (const [name, rule] of Object.entries(document)) {
    if (typeof rule !== 'string') throw problem(file, `rule "${name}" must be a string, not ${JSON.stringify(rule)} (quote it in YAML)`);
    rules[name] = rule;
  }
  return rules;
}

const problem = (file: string, what: string) => settingFileProblem(POLICY_FILE_SETTING, file, what);
