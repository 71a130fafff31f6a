export * from './inventory.projection';
export * from './inventory.schema';
export * from './inventory.queries';
export * from './inventory.views';
export * from './inventory.snapshot';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './page-cursor';
