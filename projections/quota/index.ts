export * from './quota.projection';
export * from './quota.schema';
export * from './quota.queries';
