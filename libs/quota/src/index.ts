export * from './application/quota.module';
