import { readFileSync } from 'node:fs';
import { loadAll } from 'js-yaml';
import { ConfigError } from '@ledger/config';
import { DEFAULT_HEALTH_POLICY, type HealthPolicy, HealthPolicyProblem, parseHealthPolicy } from '@ledger/inventory';

export const HEALTH_POLICY_FILE_SETTING = 'LEDGER_HEALTH_POLICY_FILE';

/**
 * The health policy from the file LEDGER_HEALTH_POLICY_FILE names, or the
 * default without one. As with LEDGER_POLICY_FILE, anything wrong stops
 * start-up: a ConfigError naming the setting, the file and the member.
 */
export function loadHealthPolicy(file: string | undefined): HealthPolicy {
  if (file === undefined) return DEFAULT_HEALTH_POLICY;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw problem(file, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let documents: unknown[];
  try {
    documents = loadAll(text);
  } catch (error) {
    throw problem(file, `not YAML: ${(error as Error).message}`);
  }
  if (documents.length !== 1) throw problem(file, `holds ${documents.length} YAML documents; a health policy is one map`);
  try {
    return parseHealthPolicy(documents[0]);
  } catch (error) {
    if (error instanceof HealthPolicyProblem) throw problem(file, error.message);
    throw error;
  }
}

const problem = (file: string, what: string): ConfigError => new ConfigError(HEALTH_POLICY_FILE_SETTING, `${file}: ${what}`);
