export * from './placement.projection';
export * from './placement.schema';
export * from './placement.queries';
