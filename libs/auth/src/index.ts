export * from './domain/principal';
export * from './domain/auth-errors';
export * from './tokens/token-codec';
export * from './credentials/credential-files';
export * from './nest/auth.decorators';
export * from './nest/auth.options';
export * from './nest/auth.guard';
export * from './nest/auth.module';
