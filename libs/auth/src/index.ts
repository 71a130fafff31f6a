// The auth context's public face. It loads no Nest, so the agent and the projections can import it; the Nest
// module and what Nest injects are in ./nest (@ledger/auth/nest). See docs/architecture.md, "A context's two faces".
export * from './domain/principal';
export * from './domain/auth-errors';
export * from './tokens/token-codec';
export * from './credentials/credential-files';
export * from './keystone/keystone-session';
export * from './keystone/keystone-tokens';
export * from './keystone/keystone-service-access';
export * from './policy/cyborg-default-rules';
export * from './policy/policy-enforcer';
export * from './policy/policy-file';
export * from './nest/auth.options';
export * from './nest/authenticate';
