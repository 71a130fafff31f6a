import { evaluatePolicyCheck } from './evaluate-policy-check';
import { parsePolicyRule } from './parse-policy-rule';
import type { PolicyValues } from './policy-credentials';

const CREDENTIALS: PolicyValues = {
  user_id: 'alice',
  project_id: 'tenant-a',
  roles: ['Member', 'reader'],
  is_admin: false,
  nested: { groups: [{ name: 'ops' }, { name: 'dev' }] },
};
const TARGET: PolicyValues = { project_id: 'tenant-a', user_id: 'alice', owner: 'bob' };
const RULES = new Map([
  ['member', parsePolicyRule('member', 'role:member')],
  ['nobody', parsePolicyRule('nobody', '!')],
]);

const passes = (text: string, credentials = CREDENTIALS, target = TARGET) =>
  evaluatePolicyCheck(parsePolicyRule('test', text), { credentials, target, rules: RULES });

type Case = readonly [text: string, passes: boolean, credentials?: PolicyValues, target?: PolicyValues];

describe('evaluatePolicyCheck', () => {
  const cases: Record<string, readonly Case[]> = {
    'passes "@" and the empty rule, never "!"': [
      ['@', true],
      ['', true],
      ['!', false],
    ],
    'compares roles without regard to case, also against the target': [
      ['role:member', true],
      ['role:READER', true],
      ['role:admin', false],
      ['role:%(wanted)s', true, CREDENTIALS, { wanted: 'reader' }],
      ['role:%(missing)s', false],
    ],
    'follows rule:, and fails a rule that is not defined': [
      ['rule:member', true],
      ['rule:nobody', false],
      ['rule:unknown', false],
    ],
    'compares a credential with the target, failing when either lacks it': [
      ['project_id:%(project_id)s', true],
      ['user_id:%(owner)s', false],
      ['project_id:%(project_id)s', false, { roles: [] }],
      ['project_id:%(project_id)s', false, CREDENTIALS, {}],
      ['user_id:alice', true],
    ],
    'prints booleans as Python does, and reads literals on the left': [
      ['is_admin:False', true],
      ['is_admin:True', false],
      ['is_admin:True', true, { ...CREDENTIALS, is_admin: true }],
      ["'alice':%(user_id)s", true],
      ['"bob":%(user_id)s', false],
      ['True:%(flag)s', true, CREDENTIALS, { flag: true }],
      ["'50%':50%%", true],
    ],
    'follows dotted credentials into lists': [
      ['nested.groups.name:dev', true],
      ['nested.groups.name:qa', false],
      ['roles:reader', true],
    ],
    'combines with and, or, not, "and" first': [
      ['role:admin or role:member and user_id:alice', true],
      ['(role:admin or role:member) and user_id:bob', false],
      ['role:member and not role:admin', true],
      ['not rule:member', false],
      ['role:admin or not @', false],
    ],
  };

  it.each(Object.entries(cases))('%s', (_, rows) => {
    for (const [text, expected, credentials, target] of rows) {
      expect([text, passes(text, credentials, target)]).toEqual([text, expected]);
    }
  });
});
