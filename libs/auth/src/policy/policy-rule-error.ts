/** A policy rule that cannot be read: which rule, its text, and what is wrong where. */
export class PolicyRuleError extends Error {
  constructor(
    readonly rule: string,
    readonly text: string,
    readonly problem: string,
  ) {
    super(`rule "${rule}" ("${text}"): ${problem}`);
    this.name = 'PolicyRuleError';
  }
}
