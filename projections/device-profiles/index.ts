export * from './device-profiles.projection';
export * from './device-profiles.schema';
export * from './device-profile.queries';
export * from './device-profile.views';
