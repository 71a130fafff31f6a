export * from './device-history.schema';
export * from './device-history.views';
export * from './device-history.queries';
export * from './device-history.projection';
export * from './usage';
