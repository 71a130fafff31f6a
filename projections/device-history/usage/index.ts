export * from './usage-window';
export * from './held-interval';
export * from './fold-usage';
export * from './usage-report';
export * from './resolve-log-point';
export * from './usage.queries';
export * from './compute-usage-report';
