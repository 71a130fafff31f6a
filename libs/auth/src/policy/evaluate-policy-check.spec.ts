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

describe('evaluatePolicyCheck', () => {
  it('passes "@" and the empty rule, never "!"', () => {
    expect(passes('@')).toBe(true);
    expect(passes('')).toBe(true);
    expect(passes('!')).toBe(false);
  });

  it('compares roles without regard to case, also against the target', () => {
    expect(passes('role:member')).toBe(true);
    expect(passes('role:READER')).toBe(true);
    expect(passes('role:admin')).toBe(false);
    expect(passes('role:%(wanted)s', CREDENTIALS, { wanted: 'reader' })).toBe(true);
    expect(passes('role:%(missing)s')).toBe(false);
  });

  it('follows rule:, and fails a rule that is not defined', () => {
    expect(passes('rule:member')).toBe(true);
    expect(passes('rule:nobody')).toBe(false);
    expect(passes('rule:unknown')).toBe(false);
  });

  it('compares a credential with the target, failing when either lacks it', () => {
    expect(passes('project_id:%(project_id)s')).toBe(true);
    expect(passes('user_id:%(owner)s')).toBe(false);
    expect(passes('project_id:%(project_id)s', { roles: [] })).toBe(false);
    expect(passes('project_id:%(project_id)s', CREDENTIALS, {})).toBe(false);
    expect(passes('user_id:alice')).toBe(true);
  });

  it('prints booleans as Python does, and reads literals on the left', () => {
    expect(passes('is_admin:False')).toBe(true);
    expect(passes('is_admin:True')).toBe(false);
    expect(passes('is_admin:True', { ...CREDENTIALS, is_admin: true })).toBe(true);
    expect(passes("'alice':%(user_id)s")).toBe(true);
    expect(passes('"bob":%(user_id)s')).toBe(false);
    expect(passes('True:%(flag)s', CREDENTIALS, { flag: true })).toBe(true);
    expect(passes("'50%':50%%")).toBe(true);
  });

  it('follows dotted credentials into lists', () => {
    expect(passes('nested.groups.name:dev')).toBe(true);
    expect(passes('nested.groups.name:qa')).toBe(false);
    expect(passes('roles:reader')).toBe(true);
  });

  it('combines with and, or, not, "and" first', () => {
    expect(passes('role:admin or role:member and user_id:alice')).toBe(true);
    expect(passes('(role:admin or role:member) and user_id:bob')).toBe(false);
    expect(passes('role:member and not role:admin')).toBe(true);
    expect(passes('not rule:member')).toBe(false);
    expect(passes('role:admin or not @')).toBe(false);
  });
});
