import { Module } from '@nestjs/common';
import { ProvisionHostHandler } from './provision-host/provision-host.handler';
import { ProvisionWorkflowCommands } from './provision-host/provision-workflow.commands';

/**
 * The provisioning command side: the request that starts a provision
 * workflow and the commands the workflow sends. Expects the app to provide
 * EVENT_STORE, PROVISION_WORKFLOWS and PROVISION_PLACEMENT, and the
 * inventory context's handlers on the command bus.
 */
@Module({
  providers: [ProvisionHostHandler, ProvisionWorkflowCommands],
  exports: [ProvisionWorkflowCommands],
})
export class ProvisioningModule {}
