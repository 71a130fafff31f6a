/** FNV-1a: a fast 32-bit hash of a string. Not for security: for reproducible simulation only. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A number in [0, 1) that depends only on `text`: the same seed and moment always read the same. */
export const unitFrom = (text: string): number => mulberry32(hash32(text))();

/** A reproducible stream of numbers in [0, 1) (mulberry32). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 32 hex digits from `text`, for ids (interface, function, serial) that must look real and stay put. */
export function hex32(text: string): string {
  return [0, 1, 2, 3].map((part) => hash32(`${part}|${text}`).toString(16).padStart(8, '0')).join('');
}
