import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@ledger/config';
import { DEFAULT_HEALTH_POLICY } from '@ledger/inventory';
import { loadHealthPolicy } from './health-policy.file';

describe('loadHealthPolicy (LEDGER_HEALTH_POLICY_FILE)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'health-policy-'));
  const file = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('is the default policy without a file', () => {
    expect(loadHealthPolicy(undefined)).toBe(DEFAULT_HEALTH_POLICY);
  });

  it('reads a policy file', () => {
    const path = file('ok.yaml', 'version: 2026-11.2\nrules:\n  - match: { kind: xid, codes: [79] }\n    effect: drain\n    recovery: operator\n');
    expect(loadHealthPolicy(path)).toEqual({ version: '2026-11.2', rules: [{ match: { kind: 'xid', codes: [79] }, effect: 'drain', recovery: 'operator' }] });
  });

  it.each([
    ['a missing file', join(dir, 'absent.yaml'), 'cannot read the file (ENOENT)'],
    ['text that is not YAML', 'bad.yaml', 'not YAML'],
    ['two documents', 'two.yaml', 'holds 2 YAML documents'],
    ['a bad rule', 'rule.yaml', 'rules[0].effect must be one of watch, reserve, drain'],
  ])('stops start-up on %s, naming the setting and the file', (_, name, message) => {
    const texts: Record<string, string> = {
      'bad.yaml': 'version: [1\n',
      'two.yaml': 'version: 1\nrules: []\n---\nversion: 2\nrules: []\n',
      'rule.yaml': 'version: 1\nrules:\n  - { match: {}, effect: panic, recovery: operator }\n',
    };
    const path = name.startsWith('/') ? name : file(name, texts[name]);
    const error = (() => {
      try {
        loadHealthPolicy(path);
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('loaded');
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`LEDGER_HEALTH_POLICY_FILE: ${path}: `);
    expect(error.message).toContain(message);
  });
});
