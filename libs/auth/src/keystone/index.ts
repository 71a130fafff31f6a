export * from './keystone-errors';
export * from './keystone-session';
export * from './keystone-tokens';
export * from './keystone-service-access';
