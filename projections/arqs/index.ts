export * from './arq.schema';
export * from './arq.queries';
export * from './arq.projection';
