export * from './errors/ledger-error';
export * from './errors/common-errors';
export * from './ids/uuid-v7';
export * from './ids/name-based-uuid';
export * from './json/canonical-json';
export * from './actor';
export * from './decider/decider';
export * from './async/for-each-concurrently';
