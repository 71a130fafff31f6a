/**
 * Canonical JSON (sorted keys, no insignificant whitespace, `undefined`
 * members dropped): the byte form hashed by the audit chain, so the same value
 * hashes the same whichever store returned it. For any value JSON.stringify
 * accepts, `canonicalJson(v) === canonicalJson(JSON.parse(JSON.stringify(v)))`
 * (it honours `toJSON` and boxed primitives as JSON.stringify does), so a
 * writer can hash what it was given and a reader what it got back. It sits on
 * every append, hence the hand-written walk.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return canonicalArray(value);
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalJson((value as { toJSON(): unknown }).toJSON());
      if (value instanceof Number || value instanceof String || value instanceof Boolean) return canonicalJson(value.valueOf());
      return canonicalObject(value as Record<string, unknown>);
    default:
      return 'null';
  }
}

function canonicalArray(items: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += canonicalJson(items[i]);
  }
  return `${out}]`;
}

function canonicalObject(object: Record<string, unknown>): string {
  let out = '{';
  let first = true;
  for (const key of Object.keys(object).sort()) {
    const member = object[key];
    if (member === undefined || typeof member === 'function') continue;
    out += `${first ? '' : ','}${quotedKey(key)}:${canonicalJson(member)}`;
    first = false;
  }
  return `${out}}`;
}

/** Keys repeat across events (type names, field names): quote each once. */
const quotedKeys = new Map<string, string>();

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < 10_000) quotedKeys.set(key, quoted);
  }
  return quoted;
}
