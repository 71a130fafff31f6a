// The programming context's public face. It loads no Nest, so the agent and the projections can import it; the Nest
// module and what Nest injects are in ./nest (@ledger/programming/nest). See docs/architecture.md, "A context's two faces".
export * from './domain/programming.errors';
export * from './domain/signature-verdict';
export * from './domain/bitstream-trust';
export * from './domain/bitstream-origin';
export * from './domain/bitstream-id';
export * from './domain/programming.events';
export * from './domain/bitstream.commands';
export * from './domain/bitstream.state';
export * from './domain/bitstream.decider';
export * from './domain/signing-keys.commands';
export * from './domain/signing-keys.decider';
export * from './application/programming.settings';
export * from './application/programming-command.result';
export * from './application/bitstream-content.port';
export * from './application/register-bitstream/register-bitstream.command';
export * from './application/register-bitstream-from-origin/register-bitstream-from-origin.command';
export * from './application/retire-bitstream/retire-bitstream.command';
export * from './application/trust-signing-key/trust-signing-key.command';
export * from './application/revoke-signing-key/revoke-signing-key.command';
