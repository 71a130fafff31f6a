/**
 * True when `text` is exactly what canonicalJson gives for the value it
 * parses to: `isCanonicalJson(t)` implies `canonicalJson(JSON.parse(t)) === t`.
 * One pass, no allocation per value, so a verifier can trust stored text
 * without parsing it. It may say false for canonical text it does not bother
 * to prove (a string or key holding an escape): callers then decode.
 */
export function isCanonicalJson(text: string): boolean {
  // One native pass over the whole text instead of one per string: outside
  // strings canonical text has no whitespace, so an escape, a control
  // character or a surrogate anywhere is one inside a string, not proven.
  if (NOT_PLAIN.test(text)) return false;
  try {
    return new CanonicalScanner(text).wholeValue();
  } catch {
    // Nesting deeper than the stack: not worth proving.
    return false;
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
/** What a string or key may hold to be proven canonical without decoding: no escape, control character or surrogate. */
const NOT_PLAIN = /[\\\u0000-\u001f\ud800-\udfff]/;
const NUMBER_GRAMMAR = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

class CanonicalScanner {
  private at = 0;

  constructor(private readonly text: string) {}

  wholeValue(): boolean {
    return this.value() && this.at === this.text.length;
  }

  private value(): boolean {
    const text = this.text;
    switch (text.charCodeAt(this.at)) {
      case 0x7b:
        return this.object();
      case 0x5b:
        return this.array();
      case QUOTE:
        return this.stringValue();
      case 0x74:
        return this.literal('true');
      case 0x66:
        return this.literal('false');
      case 0x6e:
        return this.literal('null');
      default:
        return this.number();
    }
  }

  /** Keys strictly ascending in UTF-16 order, as canonicalJson sorts them (which also rules out duplicates). */
  private object(): boolean {
    this.at++;
    if (this.text.charCodeAt(this.at) === 0x7d) return this.skip();
    let previous: string | undefined;
    for (;;) {
      const key = this.string();
      if (key === undefined || (previous !== undefined && key <= previous)) return false;
      previous = key;
      if (this.text.charCodeAt(this.at++) !== COLON || !this.value()) return false;
      const next = this.text.charCodeAt(this.at++);
      if (next === 0x7d) return true;
      if (next !== COMMA) return false;
    }
  }

  private array(): boolean {
    this.at++;
    if (this.text.charCodeAt(this.at) === 0x5d) return this.skip();
    for (;;) {
      if (!this.value()) return false;
      const next = this.text.charCodeAt(this.at++);
      if (next === 0x5d) return true;
      if (next !== COMMA) return false;
    }
  }

  /**
   * A key: a string, which holds no escape or surrogate (the whole text was
   * tested), so its content equals the decoded string. Returns it, or
   * undefined.
   */
  private string(): string | undefined {
    const start = this.at + 1;
    if (!this.stringValue()) return undefined;
    return this.text.slice(start, this.at - 1);
  }

  /** Steps over a string; a value's content is not needed, so it is not copied. */
  private stringValue(): boolean {
    if (this.text.charCodeAt(this.at) !== QUOTE) return false;
    const end = this.text.indexOf('"', this.at + 1);
    if (end < 0) return false;
    this.at = end + 1;
    return true;
  }

  /** Steps over a closing bracket. */
  private skip(): true {
    this.at++;
    return true;
  }

  private literal(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }

  /** canonicalJson writes `String(n)`: the text must be that, and finite. */
  private number(): boolean {
    const text = this.text;
    const start = this.at;
    while (this.at < text.length && isNumberChar(text.charCodeAt(this.at))) this.at++;
    if (smallInteger(text, start, this.at)) return true;
    const span = text.slice(start, this.at);
    if (!NUMBER_GRAMMAR.test(span)) return false;
    const value = Number(span);
    return Number.isFinite(value) && String(value) === span;
  }
}

/**
 * text[start, end) is an integer String() writes as it is: no leading zero,
 * no -0, at most 15 digits (short of 2^53). Checked in place: most numbers
 * in events are such, and a slice and a regex for each cost more.
 */
function smallInteger(text: string, start: number, end: number): boolean {
  const digits = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  const length = end - digits;
  if (length < 1 || length > 15) return false;
  const first = text.charCodeAt(digits);
  if (first === 0x30) return length === 1 && digits === start;
  for (let at = digits; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/** Digits, sign, point, exponent. */
const isNumberChar = (code: number): boolean => (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2b || code === 0x2e || code === 0x65 || code === 0x45;
