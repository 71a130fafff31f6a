export * from './workflow-spec';
export * from './demo-workflow';
export * from './fake-ports';
export * from './workflow-runtime.scenarios';
