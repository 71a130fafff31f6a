import { parsePolicyRule } from './parse-policy-rule';
import { PolicyRuleError } from './policy-rule-error';

const parse = (text: string) => parsePolicyRule('test:rule', text);
const role = (match: string) => ({ kind: 'role', match });

describe('parsePolicyRule', () => {
  it('reads an empty rule, "@" and "!"', () => {
    expect(parse('')).toEqual({ kind: 'always' });
    expect(parse('   ')).toEqual({ kind: 'always' });
    expect(parse('@')).toEqual({ kind: 'always' });
    expect(parse('!')).toEqual({ kind: 'never' });
  });

  it('reads rule:, role: and generic checks, splitting at the first colon', () => {
    expect(parse('rule:admin_api')).toEqual({ kind: 'rule', name: 'admin_api' });
    expect(parse('role:admin')).toEqual(role('admin'));
    expect(parse('project_id:%(project_id)s')).toEqual({ kind: 'generic', key: 'project_id', match: '%(project_id)s' });
    expect(parse("'member':%(role.name)s")).toEqual({ kind: 'generic', key: "'member'", match: '%(role.name)s' });
    expect(parse('role:compute:admin')).toEqual(role('compute:admin'));
  });

  it('binds "and" tighter than "or", and reads the operators in any case', () => {
    expect(parse('role:a or role:b AND role:c')).toEqual({ kind: 'or', checks: [role('a'), { kind: 'and', checks: [role('b'), role('c')] }] });
    expect(parse('role:a and role:b Or role:c')).toEqual({ kind: 'or', checks: [{ kind: 'and', checks: [role('a'), role('b')] }, role('c')] });
    expect(parse('role:a or role:b or role:c')).toEqual({ kind: 'or', checks: [role('a'), role('b'), role('c')] });
  });

  it('reads parentheses, also around words and around a %(target)s', () => {
    expect(parse('(role:a or role:b) and role:c')).toEqual({ kind: 'and', checks: [{ kind: 'or', checks: [role('a'), role('b')] }, role('c')] });
    expect(parse('((role:a))')).toEqual(role('a'));
    expect(parse('role:a and (project_id:%(project_id)s)')).toEqual({
      kind: 'and',
      checks: [role('a'), { kind: 'generic', key: 'project_id', match: '%(project_id)s' }],
    });
  });

  it('applies "not" to the check or parenthesis after it', () => {
    expect(parse('not role:a and role:b')).toEqual({ kind: 'and', checks: [{ kind: 'not', check: role('a') }, role('b')] });
    expect(parse('not (role:a or role:b)')).toEqual({ kind: 'not', check: { kind: 'or', checks: [role('a'), role('b')] } });
    expect(parse('not not role:a')).toEqual({ kind: 'not', check: { kind: 'not', check: role('a') } });
  });

  it.each([
    ['role:a or', 'expected a check but found the end'],
    ['(role:a or role:b', 'expected ")" but found the end'],
    ['role:a)', 'unexpected ")"'],
    ['role:a role:b', 'unexpected "role:b"'],
    ['admin', '"admin" is not a check'],
    [':x', '":x" is not a check'],
    ['role:', '"role:" names no role'],
    ['rule:', '"rule:" names no rule'],
    ['and role:a', 'expected a check but found "and"'],
    ['http://policy.example/check', 'remote http checks are not supported'],
  ])('refuses %p, naming the rule, its text and the fault', (text, problem) => {
    expect(() => parse(text)).toThrow(PolicyRuleError);
    expect(() => parse(text)).toThrow(`rule "test:rule" ("${text}"): ${problem}`);
  });
});
