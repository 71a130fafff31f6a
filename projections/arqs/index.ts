export * from './arq.schema';
export * from './arq.queries';
