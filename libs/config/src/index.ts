export * from './config-error';
export * from './ledger-config';
export * from './data-files';
export * from './storage-options';
export * from './env-values';
export * from './client-ledger-url';
export * from './placement-config';
export * from './bitstream-config';
