/**
 * Where a secret could sit in anything logged as an object: the credential
 * headers (a request's or an outgoing call's), and the settings and bodies
 * that carry passwords and keys. Messages are text and cannot be redacted:
 * no message may hold one (test/e2e/log-secrets.e2e-spec.ts greps for them).
 */
const SECRET_HEADERS = ['authorization', '"x-auth-token"', '"x-service-token"', '"x-subject-token"', 'cookie'];
const SECRET_KEYS = ['password', 'secret', 'token', 'authSecret', 'applicationCredentialSecret', 'LEDGER_AUTH_SECRET', 'LEDGER_KEYSTONE_PASSWORD', 'LEDGER_KEYSTONE_APPLICATION_CREDENTIAL_SECRET', 'LEDGER_NOVA_TOKEN', 'LEDGER_PLACEMENT_TOKEN'];

export const REDACTED_PATHS: readonly string[] = [
  ...SECRET_HEADERS.flatMap((header) => [`headers[${header}]`, `*.headers[${header}]`]),
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];
