/**
 * A policy rule read into a tree, in oslo.policy's language: `@` always
 * passes, `!` never does, `rule:NAME` is another rule, `role:NAME` a role
 * of the caller, and any other `KEY:MATCH` compares a credential (or a
 * literal) with MATCH, where `%(name)s` stands for the target's value.
 */
export type PolicyCheck =
  | { readonly kind: 'always' }
  | { readonly kind: 'never' }
  | { readonly kind: 'rule'; readonly name: string }
  | { readonly kind: 'role'; readonly match: string }
  | { readonly kind: 'generic'; readonly key: string; readonly match: string }
  | { readonly kind: 'not'; readonly check: PolicyCheck }
  | { readonly kind: 'and'; readonly checks: readonly PolicyCheck[] }
  | { readonly kind: 'or'; readonly checks: readonly PolicyCheck[] };

/** The rules a check names with `rule:`, in order, each once. */
export function referencedRules(check: PolicyCheck): string[] {
  switch (check.kind) {
    case 'rule':
      return [check.name];
    case 'not':
      return referencedRules(check.check);
    case 'and':
    case 'or':
      return [...new Set(check.checks.flatMap(referencedRules))];
    default:
      return [];
  }
}
