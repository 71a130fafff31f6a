export * from './domain/desired-placement';
export * from './domain/desired-provider';
export * from './domain/placement-traits';
