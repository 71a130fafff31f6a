import type { PolicyCheck } from './policy-check';
import { PolicyRuleError } from './policy-rule-error';

type Token = { readonly kind: '(' | ')' | 'and' | 'or' | 'not' } | { readonly kind: 'check'; readonly text: string };

/**
 * Reads `text`, the rule called `rule`, as oslo.policy does: an empty rule
 * always passes; checks are joined by `and`, `or` and `not` (any case),
 * `and` binding tighter than `or`, with parentheses. Where oslo.policy
 * logs a rule it cannot read and denies, this throws PolicyRuleError
 * naming the rule and the text it could not read.
 */
export function parsePolicyRule(rule: string, text: string): PolicyCheck {
  const tokens = tokenize(text);
  if (tokens.length === 0) return { kind: 'always' };
  const parser = new Parser(rule, text, tokens);
  return parser.parse();
}

/** Words are split at white space; parentheses may open or close a word (`(role:a`, `%(project_id)s)`). */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    const opening = word.length - word.replace(/^\(+/, '').length;
    const inner = word.slice(opening);
    const body = inner.replace(/\)+$/, '');
    const closing = inner.length - body.length;
    for (let i = 0; i < opening; i++) tokens.push({ kind: '(' });
    const lowered = body.toLowerCase();
    if (lowered === 'and' || lowered === 'or' || lowered === 'not') tokens.push({ kind: lowered });
    else if (body !== '') tokens.push({ kind: 'check', text: body });
    for (let i = 0; i < closing; i++) tokens.push({ kind: ')' });
  }
  return tokens;
}

const describe = (token: Token | undefined): string => (token === undefined ? 'the end' : token.kind === 'check' ? `"${token.text}"` : `"${token.kind}"`);

class Parser {
  private position = 0;

  constructor(
    private readonly rule: string,
    private readonly text: string,
    private readonly tokens: readonly Token[],
  ) {}

  parse(): PolicyCheck {
    const check = this.orExpression();
    if (this.position < this.tokens.length) this.fail(`unexpected ${describe(this.tokens[this.position])}`);
    return check;
  }

  /** Checks joined by `or`, each of them checks joined by `and`: `and` binds tighter. */
  private orExpression(): PolicyCheck {
    return this.joined('or', () => this.joined('and', () => this.unary()));
  }

  private joined(operator: 'and' | 'or', operand: () => PolicyCheck): PolicyCheck {
    const checks = [operand()];
    while (this.peek()?.kind === operator) {
      this.position++;
      checks.push(operand());
    }
    return checks.length === 1 ? checks[0] : { kind: operator, checks };
  }

  private unary(): PolicyCheck {
    const token = this.tokens[this.position++];
    if (token?.kind === 'not') return { kind: 'not', check: this.unary() };
    if (token?.kind === '(') {
      const inner = this.orExpression();
      if (this.tokens[this.position]?.kind !== ')') this.fail(`expected ")" but found ${describe(this.tokens[this.position])}`);
      this.position++;
      return inner;
    }
    if (token?.kind === 'check') return this.check(token.text);
    return this.fail(`expected a check but found ${describe(token)}`);
  }

  private check(text: string): PolicyCheck {
    if (text === '@') return { kind: 'always' };
    if (text === '!') return { kind: 'never' };
    const colon = text.indexOf(':');
    if (colon <= 0) this.fail(`"${text}" is not a check (KIND:MATCH, @ or !)`);
    const kind = text.slice(0, colon);
    const match = text.slice(colon + 1);
    if (kind === 'rule') return match === '' ? this.fail('"rule:" names no rule') : { kind: 'rule', name: match };
    if (kind === 'role') return match === '' ? this.fail('"role:" names no role') : { kind: 'role', match };
    if (kind === 'http' || kind === 'https') this.fail(`remote ${kind} checks are not supported`);
    return { kind: 'generic', key: kind, match };
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private fail(problem: string): never {
    throw new PolicyRuleError(this.rule, this.text, problem);
  }
}
