export * from './application/allocation.module';
