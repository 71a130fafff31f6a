export * from './domain/desired-placement';
