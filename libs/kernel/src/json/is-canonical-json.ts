/**
 * True when `text` is exactly what canonicalJson gives for the value it
 * parses to: `isCanonicalJson(t)` implies `canonicalJson(JSON.parse(t)) === t`.
 * One pass, no allocation per value, so a verifier can trust stored text
 * without parsing it. It may say false for canonical text it does not bother
 * to prove (a string or key holding an escape): callers then decode.
 */
export function isCanonicalJson(text: string): boolean {
  try {
    return new CanonicalScanner(text).wholeValue();
  } catch {
    // Nesting deeper than the stack: not worth proving.
    return false;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const NUMBER_CHARS = /[-+.eE0-9]/;
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
        return this.string() !== undefined;
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
   * A string without escapes (JSON.stringify's escapes are not proven here)
   * and without a lone surrogate (JSON.stringify would escape it). Returns
   * its content, which then equals the decoded string, or undefined.
   */
  private string(): string | undefined {
    const text = this.text;
    if (text.charCodeAt(this.at) !== QUOTE) return undefined;
    const start = ++this.at;
    for (; this.at < text.length; this.at++) {
      const code = text.charCodeAt(this.at);
      if (code === QUOTE) return text.slice(start, this.at++);
      if (code === BACKSLASH || code < 0x20) return undefined;
      if (code >= 0xd800 && code <= 0xdfff) {
        const low = text.charCodeAt(this.at + 1);
        if (code > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return undefined;
        this.at++;
      }
    }
    return undefined;
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
    const start = this.at;
    while (this.at < this.text.length && NUMBER_CHARS.test(this.text[this.at])) this.at++;
    const span = this.text.slice(start, this.at);
    if (!NUMBER_GRAMMAR.test(span)) return false;
    const value = Number(span);
    return Number.isFinite(value) && String(value) === span;
  }
}
