import { PolicyEnforcer } from '@ledger/auth';
import { formatPolicyTable } from './policy.command';

describe('ledgerctl policy show', () => {
  it('prints every rule with its source, the overridden ones marked file', () => {
    const lines = formatPolicyTable(new PolicyEnforcer({ 'cyborg:arq:create': 'role:reader', 'cyborg:arq:update': '' }).effective).split('\n');
    expect(lines[0]).toMatch(/^NAME +SOURCE +RULE$/);
    expect(lines[1]).toMatch(/^admin_api +default +role:admin$/);
    expect(lines).toContainEqual(expect.stringMatching(/^cyborg:arq:create +file +role:reader$/));
    expect(lines).toContainEqual(expect.stringMatching(/^cyborg:arq:update +file +"" \(always\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^cyborg:device:get_all +default +rule:project_manager_or_admin$/));
  });
});
