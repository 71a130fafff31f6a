import { readYamlSettingFile, settingFileProblem } from '@ledger/config';
import { DEFAULT_HEALTH_POLICY, type HealthPolicy, HealthPolicyProblem, parseHealthPolicy } from '@ledger/inventory';

export const HEALTH_POLICY_FILE_SETTING = 'LEDGER_HEALTH_POLICY_FILE';

/**
 * The health policy from the file LEDGER_HEALTH_POLICY_FILE names, or the
 * default without one. As with LEDGER_POLICY_FILE, anything wrong stops
 * start-up: a ConfigError naming the setting, the file and the member.
 */
export function loadHealthPolicy(file: string | undefined): HealthPolicy {
  if (file === undefined) return DEFAULT_HEALTH_POLICY;
  const document = readYamlSettingFile(HEALTH_POLICY_FILE_SETTING, file, 'a health policy');
  try {
    return parseHealthPolicy(document);
  } catch (error) {
    if (error instanceof HealthPolicyProblem) throw settingFileProblem(HEALTH_POLICY_FILE_SETTING, file, error.message);
    throw error;
  }
}
