import { type DeviceHealthCause, HEALTH_CAUSE_KINDS, type HealthCauseKind, isHealthCauseKind } from './health-cause';

/**
 * What a health report does to a device, mildest first:
 * - `none`: healthy;
 * - `watch`: recorded and shown, the device is still offered;
 * - `reserve`: no new claims (Placement reserves it), holders keep what they have;
 * - `drain`: as reserve, and the holders are asked to move off (DeviceDrainRequested).
 */
export const HEALTH_EFFECTS = ['none', 'watch', 'reserve', 'drain'] as const;
export type HealthEffect = (typeof HEALTH_EFFECTS)[number];
/** The effects a policy rule may give (`none` is only ever health). */
export const HEALTH_RULE_EFFECTS = ['watch', 'reserve', 'drain'] as const satisfies readonly HealthEffect[];

/** An effect under which the device takes no new claims. */
export const effectReserves = (effect: HealthEffect): boolean => effect === 'reserve' || effect === 'drain';

/** How an unhealthy device comes back: after `healthyChecks` healthy reports in a row, or only when an operator clears it. */
export type HealthRecovery = { readonly healthyChecks: number } | 'operator';

/** The most healthy checks a rule may ask for (a day of 15 s heartbeats). */
export const MAX_HEALTHY_CHECKS = 5760;

export interface HealthRuleMatch {
  readonly kind?: HealthCauseKind;
  /** Any of these codes (an Xid list); absent: any code. */
  readonly codes?: readonly number[];
  readonly detail?: string;
  /** The reported level; absent: either unhealthy level. */
  readonly health?: 'degraded' | 'failed';
}

export interface HealthRule {
  readonly match: HealthRuleMatch;
  readonly effect: (typeof HEALTH_RULE_EFFECTS)[number];
  readonly recovery: HealthRecovery;
}

/** A versioned health policy: the first rule that matches a report judges it. */
export interface HealthPolicy {
  readonly version: string;
  readonly rules: readonly HealthRule[];
}

/** What the policy made of one unhealthy report. */
export interface HealthJudgment {
  readonly effect: Exclude<HealthEffect, 'none'>;
  readonly recovery: HealthRecovery;
  readonly policyVersion: string;
}

/**
 * When no rule matches: the behaviour before policies (a failed device is
 * not offered, a degraded one is, and one healthy report brings either back).
 */
const UNMATCHED = { failed: { effect: 'reserve', recovery: { healthyChecks: 1 } }, degraded: { effect: 'watch', recovery: { healthyChecks: 1 } } } as const;

/**
 * The first matching rule's effect and recovery. A `failed` device is at
 * least reserved whatever a rule says: the agent calls it unusable, and the
 * bind's pre-check refuses it on that word alone.
 */
export function judgeHealth(policy: HealthPolicy, health: 'degraded' | 'failed', cause: DeviceHealthCause | null): HealthJudgment {
  const rule = policy.rules.find((candidate) => ruleMatches(candidate.match, health, cause)) ?? UNMATCHED[health];
  const effect = health === 'failed' && rule.effect === 'watch' ? 'reserve' : rule.effect;
  return { effect, recovery: rule.recovery, policyVersion: policy.version };
}

function ruleMatches(match: HealthRuleMatch, health: 'degraded' | 'failed', cause: DeviceHealthCause | null): boolean {
  if (match.health !== undefined && match.health !== health) return false;
  if (match.kind === undefined && match.codes === undefined && match.detail === undefined) return true;
  if (cause === null || (match.kind !== undefined && match.kind !== cause.kind)) return false;
  if (match.codes !== undefined && (cause.code === undefined || !match.codes.includes(cause.code))) return false;
  return match.detail === undefined || match.detail === cause.detail;
}

/** The stricter of two: the more severe effect, and operator over checks, more checks over fewer. */
export function stricterJudgment(a: HealthJudgment, b: HealthJudgment): HealthJudgment {
  const effect = HEALTH_EFFECTS.indexOf(a.effect) >= HEALTH_EFFECTS.indexOf(b.effect) ? a.effect : b.effect;
  return { effect, recovery: stricterRecovery(a.recovery, b.recovery), policyVersion: b.policyVersion };
}

const stricterRecovery = (a: HealthRecovery, b: HealthRecovery): HealthRecovery => {
  if (a === 'operator' || b === 'operator') return 'operator';
  return a.healthyChecks >= b.healthyChecks ? a : b;
};

export const sameRecovery = (a: HealthRecovery | null, b: HealthRecovery | null): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && a.healthyChecks === b.healthyChecks);

/** A policy document breaks a rule; `path` names the member (`rules[2].effect`). */
export class HealthPolicyProblem extends Error {
  constructor(
    readonly path: string,
    readonly rule: string,
  ) {
    super(`${path} ${rule}`);
    this.name = 'HealthPolicyProblem';
  }
}

/**
 * A health policy from a parsed document (YAML or JSON), checked whole:
 * unknown members, kinds, effects and recoveries are refused with the
 * member's path, so a typo never silently weakens the policy.
 */
export function parseHealthPolicy(document: unknown): HealthPolicy {
  const root = objectAt(document, '(document)', ['version', 'rules']);
  const version = typeof root.version === 'number' && Number.isInteger(root.version) ? String(root.version) : root.version;
  if (typeof version !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(version)) {
    throw new HealthPolicyProblem('version', 'must be a version of 1 to 64 letters, digits, dots, dashes or underscores (e.g. 3 or 2026-11.1)');
  }
  if (!Array.isArray(root.rules)) throw new HealthPolicyProblem('rules', 'must be a list of rules');
  return { version, rules: root.rules.map((rule, index) => parseRule(rule, `rules[${index}]`)) };
}

function parseRule(value: unknown, path: string): HealthRule {
  const rule = objectAt(value, path, ['match', 'effect', 'recovery']);
  const effect = rule.effect;
  if (!(HEALTH_RULE_EFFECTS as readonly unknown[]).includes(effect)) throw new HealthPolicyProblem(`${path}.effect`, `must be one of ${HEALTH_RULE_EFFECTS.join(', ')}`);
  return { match: parseMatch(rule.match, `${path}.match`), effect: effect as HealthRule['effect'], recovery: parseRecovery(rule.recovery, `${path}.recovery`) };
}

function parseMatch(value: unknown, path: string): HealthRuleMatch {
  const match = objectAt(value, path, ['kind', 'codes', 'detail', 'health']);
  if (match.kind !== undefined && !isHealthCauseKind(match.kind)) throw new HealthPolicyProblem(`${path}.kind`, `must be one of ${HEALTH_CAUSE_KINDS.join(', ')}`);
  if (match.codes !== undefined && !(Array.isArray(match.codes) && match.codes.length > 0 && match.codes.every((code) => Number.isInteger(code) && code >= 0))) {
    throw new HealthPolicyProblem(`${path}.codes`, 'must be a non-empty list of non-negative integers');
  }
  if (match.detail !== undefined && typeof match.detail !== 'string') throw new HealthPolicyProblem(`${path}.detail`, 'must be a string');
  if (match.health !== undefined && match.health !== 'degraded' && match.health !== 'failed') throw new HealthPolicyProblem(`${path}.health`, 'must be degraded or failed');
  if ((match.codes !== undefined || match.detail !== undefined) && match.kind === undefined) throw new HealthPolicyProblem(`${path}.kind`, 'is needed with codes or detail');
  return match as HealthRuleMatch;
}

function parseRecovery(value: unknown, path: string): HealthRecovery {
  if (value === 'operator') return 'operator';
  const recovery = objectAt(value, path, ['healthyChecks'], 'must be operator or { healthyChecks: N }');
  const checks = recovery.healthyChecks;
  if (!(Number.isInteger(checks) && (checks as number) >= 1 && (checks as number) <= MAX_HEALTHY_CHECKS)) {
    throw new HealthPolicyProblem(`${path}.healthyChecks`, `must be an integer from 1 to ${MAX_HEALTHY_CHECKS}`);
  }
  return { healthyChecks: checks as number };
}

function objectAt(value: unknown, path: string, members: readonly string[], rule = 'must be a map'): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HealthPolicyProblem(path, rule);
  const unknown = Object.keys(value).find((key) => !members.includes(key));
  if (unknown !== undefined) throw new HealthPolicyProblem(`${path}.${unknown}`, `is not a member here (expected ${members.join(', ')})`);
  return value as Record<string, unknown>;
}
