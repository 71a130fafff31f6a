export * from './bitstreams.projection';
export * from './bitstreams.schema';
export * from './bitstreams.views';
export * from './bitstreams.queries';
