import type { PolicyCheck } from './policy-check';
import type { PolicyValues } from './policy-credentials';

export interface PolicyEvaluation {
  readonly credentials: PolicyValues;
  readonly target: PolicyValues;
  /** The checks of the rules `rule:` may name; an unknown name fails, as in oslo.policy. */
  readonly rules: ReadonlyMap<string, PolicyCheck>;
}

/** Whether the check passes, with oslo.policy's semantics (docs/policy.md, "The language"). */
export function evaluatePolicyCheck(check: PolicyCheck, evaluation: PolicyEvaluation): boolean {
  switch (check.kind) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'not':
      return !evaluatePolicyCheck(check.check, evaluation);
    case 'and':
      return check.checks.every((inner) => evaluatePolicyCheck(inner, evaluation));
    case 'or':
      return check.checks.some((inner) => evaluatePolicyCheck(inner, evaluation));
    case 'rule': {
      const rule = evaluation.rules.get(check.name);
      return rule !== undefined && evaluatePolicyCheck(rule, evaluation);
    }
    case 'role': {
      const role = substitute(check.match, evaluation.target)?.toLowerCase();
      const roles = evaluation.credentials.roles;
      return role !== undefined && Array.isArray(roles) && roles.some((granted) => String(granted).toLowerCase() === role);
    }
    case 'generic': {
      const match = substitute(check.match, evaluation.target);
      if (match === undefined) return false;
      const literal = pythonLiteral(check.key);
      return literal !== undefined ? literal === match : matchesPath(evaluation.credentials, check.key.split('.'), match);
    }
  }
}

/** `%(name)s` replaced by the target's value as Python prints it, `%%` by `%`; undefined when the target lacks a name. */
function substitute(match: string, target: PolicyValues): string | undefined {
  let missing = false;
  const result = match.replace(/%%|%\(([^)]*)\)s/g, (whole: string, name: string | undefined) => {
    if (name === undefined) return '%';
    if (!(name in target)) missing = true;
    return pythonString(target[name]);
  });
  return missing ? undefined : result;
}

/** A credential at `path` (dots go into nested values; a list matches if any member does), printed as Python would. */
function matchesPath(value: unknown, path: readonly string[], match: string): boolean {
  if (Array.isArray(value)) return value.some((member) => matchesPath(member, path, match));
  if (path.length === 0) return pythonString(value) === match;
  if (value === null || typeof value !== 'object' || !(path[0] in value)) return false;
  return matchesPath((value as Record<string, unknown>)[path[0]], path.slice(1), match);
}

/** The KEY of `KEY:MATCH` read as a Python literal (`'text'`, `"text"`, `True`, `42`), printed as Python would; else undefined. */
function pythonLiteral(key: string): string | undefined {
  if (/^'[^']*'$|^"[^"]*"$/.test(key)) return key.slice(1, -1);
  if (key === 'True' || key === 'False' || key === 'None') return key;
  if (/^-?\d+$/.test(key)) return String(Number(key));
  return undefined;
}

function pythonString(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  return String(value);
}
