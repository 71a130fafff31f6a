import type { Principal } from '../domain/principal';
import { CYBORG_DEFAULT_RULES, type CyborgApiRule } from './cyborg-default-rules';
import { evaluatePolicyCheck } from './evaluate-policy-check';
import { parsePolicyRule } from './parse-policy-rule';
import { type PolicyCheck, referencedRules } from './policy-check';
import { ownTarget, policyCredentials } from './policy-credentials';
import { PolicyRuleError } from './policy-rule-error';

/** A rule as it is enforced: its text, and whether it is Cyborg's default or an operator's override. */
export interface EffectiveRule {
  readonly name: string;
  readonly rule: string;
  readonly source: 'default' | 'file';
  /** Cyborg's default, also when the file overrides it. */
  readonly default: string;
  readonly description: string;
  readonly operations: readonly string[];
  /** One of Cyborg's legacy base rules. */
  readonly deprecated?: true;
}

/** `cyborg:` rule names in an operator's file that Cyborg does not define: a typo must not leave the default silently in force. */
export class UnknownPolicyRulesError extends Error {
  constructor(readonly names: readonly string[]) {
    super(`unknown rule${names.length === 1 ? '' : 's'} ${names.map((name) => `"${name}"`).join(', ')} (\`ledgerctl policy show\` lists every rule)`);
    this.name = 'UnknownPolicyRulesError';
  }
}

/**
 * Cyborg's rules with an operator's overrides, read and checked once:
 * every rule parses, every `rule:` names a defined rule, and no rule
 * reaches itself. A name outside `cyborg:` that Cyborg does not define is
 * the operator's own alias (`"cloud_admin": "role:admin"`, for
 * `rule:cloud_admin`), as oslo.policy allows; an unknown `cyborg:` name is
 * a typo or an API the ledger lacks. Throws PolicyRuleError or
 * UnknownPolicyRulesError.
 */
export class PolicyEnforcer {
  /** Every rule, in Cyborg's order. */
  readonly effective: readonly EffectiveRule[];
  private readonly checks: ReadonlyMap<string, PolicyCheck>;

  constructor(overrides: Readonly<Record<string, string>> = {}) {
    const undefinedNames = Object.keys(overrides).filter((name) => !CYBORG_DEFAULT_RULES.some((rule) => rule.name === name));
    const unknown = undefinedNames.filter((name) => name.startsWith('cyborg:'));
    if (unknown.length > 0) throw new UnknownPolicyRulesError(unknown);
    const defaults = CYBORG_DEFAULT_RULES.map(({ name, rule, description, operations, deprecated }): EffectiveRule => {
      const override = Object.hasOwn(overrides, name) ? overrides[name] : undefined;
      const source = override === undefined ? 'default' : 'file';
      return { name, rule: override ?? rule, source, default: rule, description, operations, ...(deprecated ? { deprecated } : {}) };
    });
    const aliases = undefinedNames.map(
      (name): EffectiveRule => ({ name, rule: overrides[name], source: 'file', default: '', description: "the operator's own rule, for other rules to name", operations: [] }),
    );
    this.effective = [...defaults, ...aliases];
    this.checks = new Map(this.effective.map((rule) => [rule.name, parsePolicyRule(rule.name, rule.rule)]));
    this.checkReferences();
  }

  /** Whether `principal` may do what `rule` guards, with Cyborg's target: the caller's own project and user. */
  authorize(rule: CyborgApiRule, principal: Principal): boolean {
    const check = this.checks.get(rule);
    return check !== undefined && evaluatePolicyCheck(check, { credentials: policyCredentials(principal), target: ownTarget(principal), rules: this.checks });
  }

  private checkReferences(): void {
    const done = new Set<string>();
    const visit = (name: string, path: readonly string[]): void => {
      if (done.has(name)) return;
      for (const next of referencedRules(this.checks.get(name) as PolicyCheck)) {
        if (!this.checks.has(next)) this.fail(name, `"rule:${next}" names a rule that is not defined`);
        if (path.includes(next)) this.fail(name, `the rules refer to each other in a loop: ${[...path.slice(path.indexOf(next)), next].join(' → ')}`);
        visit(next, [...path, next]);
      }
      done.add(name);
    };
    for (const name of this.checks.keys()) visit(name, [name]);
  }

  private fail(name: string, problem: string): never {
    throw new PolicyRuleError(name, this.effective.find((rule) => rule.name === name)?.rule ?? '', problem);
  }
}
