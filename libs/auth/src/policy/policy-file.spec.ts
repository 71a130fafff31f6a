import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@ledger/config';
import { loadPolicyEnforcer } from './policy-file';

const dir = mkdtempSync(join(tmpdir(), 'policy-file-'));
const fileWith = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

const refusal = (file: string): ConfigError => {
  try {
    loadPolicyEnforcer(file);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the file was accepted');
};

describe('loadPolicyEnforcer', () => {
  it("holds Cyborg's defaults without a file, and an empty file changes nothing", () => {
    expect(loadPolicyEnforcer(undefined).effective.every((rule) => rule.source === 'default')).toBe(true);
    expect(loadPolicyEnforcer(fileWith('empty.yaml', '# nothing\n')).effective.every((rule) => rule.source === 'default')).toBe(true);
  });

  it("reads oslo.policy's policy.yaml, and its JSON", () => {
    const yaml = fileWith('policy.yaml', '"cyborg:arq:create": "rule:project_reader_or_admin"\ncyborg:arq:delete: "!"\n"cyborg:arq:update": ""\n');
    const rules = loadPolicyEnforcer(yaml).effective.filter((rule) => rule.source === 'file');
    expect(rules.map((rule) => [rule.name, rule.rule])).toEqual([
      ['cyborg:arq:create', 'rule:project_reader_or_admin'],
      ['cyborg:arq:delete', '!'],
      ['cyborg:arq:update', ''],
    ]);
    const json = fileWith('policy.json', '{"cyborg:device:get_all": "role:reader"}');
    expect(loadPolicyEnforcer(json).effective.find((rule) => rule.name === 'cyborg:device:get_all')?.rule).toBe('role:reader');
  });

  it.each([
    ['missing.yaml', null, 'cannot read the file (ENOENT)'],
    ['bad.yaml', '"cyborg:arq:create": "role:a\n', 'not YAML'],
    ['list.yaml', '- role:admin\n', 'must be a map of rule names to rules'],
    ['number.yaml', 'cyborg:arq:create: 1\n', 'rule "cyborg:arq:create" must be a string, not 1'],
    ['unknown.yaml', 'cyborg:arq:craete: "role:member"\n', 'unknown rule "cyborg:arq:craete"'],
    ['unreadable.yaml', 'cyborg:arq:create: "role:member or"\n', 'rule "cyborg:arq:create" ("role:member or"): expected a check but found the end'],
    ['undefined.yaml', 'cyborg:arq:create: "rule:members"\n', '"rule:members" names a rule that is not defined'],
    ['duplicate.yaml', 'cyborg:arq:create: "@"\ncyborg:arq:create: "!"\n', 'not YAML'],
  ])('stops start-up for %s, naming the setting, the file and the fault', (name, text, problem) => {
    const file = text === null ? join(dir, name) : fileWith(name, text);
    const error = refusal(file);
    expect(error.setting).toBe('LEDGER_POLICY_FILE');
    expect(error.message).toContain(`LEDGER_POLICY_FILE: ${file}: `);
    expect(error.message).toContain(problem);
  });
});
