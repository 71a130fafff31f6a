export * from './domain/provisioning.errors';
export * from './domain/shell-check';
export * from './application/provisioning.ports';
export * from './application/provision-host/provision-workflow';
export * from './application/provision-host/provision-workflow.commands';
export * from './application/provision-host/provision-host.command';
export * from './application/provision-host/provision-host.handler';
export * from './application/provisioning.module';
