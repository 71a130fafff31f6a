import type { Principal } from '../domain/principal';
import { CYBORG_API_RULES, CYBORG_DEFAULT_RULES } from './cyborg-default-rules';
import { PolicyEnforcer, UnknownPolicyRulesError } from './policy-enforcer';
import { PolicyRuleError } from './policy-rule-error';

const caller = (roles: string[], project: string | null = 'tenant-a'): Principal => ({ user: 'u', project, roles });
const defaults = new PolicyEnforcer();

describe('PolicyEnforcer', () => {
  it("holds Cyborg's defaults: readers read requests and profiles, members and services write requests, managers read hardware, admins the rest", () => {
    const allowed = (rule: (typeof CYBORG_API_RULES)[number]['name']) =>
      ['reader', 'member', 'manager', 'admin', 'service', 'agent'].filter((role) => defaults.authorize(rule, caller([role])));
    expect(allowed('cyborg:arq:get_all')).toEqual(['reader', 'member', 'manager', 'admin']);
    expect(allowed('cyborg:device_profile:get_one')).toEqual(['reader', 'member', 'manager', 'admin']);
    expect(allowed('cyborg:arq:create')).toEqual(['member', 'manager', 'admin', 'service']);
    expect(allowed('cyborg:arq:update')).toEqual(['member', 'manager', 'admin', 'service']);
    expect(allowed('cyborg:device:get_all')).toEqual(['manager', 'admin']);
    expect(allowed('cyborg:device_profile:create')).toEqual(['admin']);
    expect(allowed('cyborg:deployable:program')).toEqual(['admin']);
  });

  it('refuses project rules to a token without a project, but not the admin role', () => {
    expect(defaults.authorize('cyborg:arq:get_all', caller(['member'], null))).toBe(false);
    expect(defaults.authorize('cyborg:arq:get_all', caller(['admin'], null))).toBe(true);
  });

  it('matches role names of any case, and names it does not know only as written', () => {
    const enforcer = new PolicyEnforcer({ 'cyborg:arq:create': 'role:accelerator_user or role:member' });
    expect(enforcer.authorize('cyborg:arq:create', caller(['Accelerator_User']))).toBe(true);
    expect(enforcer.authorize('cyborg:arq:create', caller(['other']))).toBe(false);
  });

  it("lets an override use Cyborg's base and legacy rules", () => {
    const enforcer = new PolicyEnforcer({ 'cyborg:arq:create': 'rule:project_reader_or_admin', 'cyborg:device:get_all': 'rule:admin_or_owner' });
    expect(enforcer.authorize('cyborg:arq:create', caller(['reader']))).toBe(true);
    expect(enforcer.authorize('cyborg:device:get_all', caller(['reader']))).toBe(true);
    expect(enforcer.authorize('cyborg:device:get_all', caller(['reader'], null))).toBe(false);
  });

  it('lists every rule in order, saying which the overrides changed', () => {
    const enforcer = new PolicyEnforcer({ 'cyborg:arq:create': 'role:reader' });
    expect(enforcer.effective.map((rule) => rule.name)).toEqual(CYBORG_DEFAULT_RULES.map((rule) => rule.name));
    expect(enforcer.effective.find((rule) => rule.name === 'cyborg:arq:create')).toMatchObject({
      rule: 'role:reader',
      default: 'rule:project_member_or_service',
      source: 'file',
    });
    expect(enforcer.effective.filter((rule) => rule.source === 'file')).toHaveLength(1);
  });

  it("refuses unknown cyborg: rule names, all of them at once", () => {
    expect(() => new PolicyEnforcer({ 'cyborg:arq:craete': '@', 'cyborg:arq:create': '@', mine: '@' })).toThrow(UnknownPolicyRulesError);
    expect(() => new PolicyEnforcer({ 'cyborg:arq:craete': '@', 'cyborg:fpga:get_all': '@' })).toThrow('unknown rules "cyborg:arq:craete", "cyborg:fpga:get_all"');
  });

  it("reads a Keystone token's domains", () => {
    const enforcer = new PolicyEnforcer({ 'cyborg:device:get_all': 'user_domain_id:default and project_domain_id:default' });
    const caller = { user: 'u', project: 'p', roles: ['reader'], userDomain: 'default', projectDomain: 'default' };
    expect(enforcer.authorize('cyborg:device:get_all', caller)).toBe(true);
    expect(enforcer.authorize('cyborg:device:get_all', { ...caller, projectDomain: 'other' })).toBe(false);
    expect(enforcer.authorize('cyborg:device:get_all', { user: 'u', project: 'p', roles: ['reader'] })).toBe(false);
  });

  it("takes a rule of the operator's own naming as an alias other rules may name", () => {
    const enforcer = new PolicyEnforcer({ hw_auditors: 'role:hw_auditor', 'cyborg:device:get_all': 'rule:project_manager_or_admin or rule:hw_auditors' });
    const auditor = { user: 'u', project: 'p', roles: ['hw_auditor'] };
    expect(enforcer.authorize('cyborg:device:get_all', auditor)).toBe(true);
    expect(enforcer.authorize('cyborg:device:get_all', { ...auditor, roles: ['member'] })).toBe(false);
    expect(enforcer.effective.find((rule) => rule.name === 'hw_auditors')).toMatchObject({ rule: 'role:hw_auditor', source: 'file' });
  });

  it('refuses a rule that names an undefined rule, or that reaches itself', () => {
    expect(() => new PolicyEnforcer({ 'cyborg:arq:create': 'rule:project_membr_api' })).toThrow(
      'rule "cyborg:arq:create" ("rule:project_membr_api"): "rule:project_membr_api" names a rule that is not defined',
    );
    expect(() => new PolicyEnforcer({ admin_api: 'rule:is_admin' })).toThrow(PolicyRuleError);
    expect(() => new PolicyEnforcer({ admin_api: 'rule:is_admin' })).toThrow('loop: admin_api → is_admin → admin_api');
    expect(() => new PolicyEnforcer({ 'cyborg:arq:create': 'role:a or rule:cyborg:arq:create' })).toThrow('loop: cyborg:arq:create → cyborg:arq:create');
  });
});
