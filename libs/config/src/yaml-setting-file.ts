import { readFileSync } from 'node:fs';
import { loadAll } from 'js-yaml';
import { ConfigError } from './config-error';

/**
 * The one YAML document of a file a setting names (LEDGER_POLICY_FILE,
 * LEDGER_HEALTH_POLICY_FILE), undefined when the file is empty. A file
 * that cannot be read, is not YAML or holds several documents stops
 * start-up with a ConfigError naming the setting and the file; `problem`
 * makes the caller's own refusals in the same words.
 */
export function readYamlSettingFile(setting: string, file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw settingFileProblem(setting, file, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let documents: unknown[];
  try {
    documents = loadAll(text);
  } catch (error) {
    throw settingFileProblem(setting, file, `not YAML: ${(error as Error).message}`);
  }
  if (documents.length > 1) throw settingFileProblem(setting, file, `holds ${documents.length} YAML documents; ${what} is one map`);
  return documents[0];
}

export const settingFileProblem = (setting: string, file: string, what: string): ConfigError => new ConfigError(setting, `${file}: ${what}`);
