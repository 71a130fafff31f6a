export * from './jobs.projection';
export * from './jobs.schema';
export * from './jobs.queries';
export * from './jobs.views';
