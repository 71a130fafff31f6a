/**
 * The auth library without its Nest guard and module: principals and roles,
 * the token codec and the credential files. For tools that must start
 * quickly (ledgerctl): loading Nest costs about half a second.
 */
export * from './domain/principal';
export * from './domain/auth-errors';
export * from './tokens/token-codec';
export * from './credentials/credential-files';
export * from './keystone';
export * from './policy/cyborg-default-rules';
export * from './policy/policy-enforcer';
export * from './policy/policy-file';
export * from './policy/policy-rule-error';
