/** RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens, ≤ 63 each, ≤ 255 in all. */
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export const MAX_HOSTNAME_LENGTH = 255;

/** Why `hostname` is not acceptable, or null when it is. Names are kept as given (not case-folded). */
export function hostnameProblem(hostname: unknown): string | null {
  if (typeof hostname !== 'string' || hostname.length === 0) return 'must be a non-empty string';
  if (hostname.length > MAX_HOSTNAME_LENGTH) return `must be at most ${MAX_HOSTNAME_LENGTH} characters`;
  // A trailing dot (the FQDN root) is refused: `node.` and `node` would otherwise be two hosts.
  if (!hostname.split('.').every((label) => LABEL.test(label))) {
    return 'must be an RFC 1123 host name (letters, digits, inner hyphens, dot-separated labels of at most 63)';
  }
  return null;
}

export const isValidHostname = (hostname: unknown): hostname is string => hostnameProblem(hostname) === null;
