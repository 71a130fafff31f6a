/**
 * Headers on every response under /console: the pages run only the console's
 * own files (no inline script or style, no other origin), talk only to this
 * ledger, and cannot be framed — so data that slipped past the pages'
 * escaping still could not run, and a token in sessionStorage stays out of
 * reach of other origins. The pages are re-checked on every load
 * (`no-cache`) so an upgrade reaches operators at once.
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-cache',
};
