import type { Command } from 'commander';
import { registerDiscoverServices } from './discover-services.command';
import { registerDriverJobCommands } from './driver-jobs.command';
import { registerDriverList } from './driver-list.command';
import { registerInstanceCommands } from './instance-attach.command';
import { registerServiceList } from './service-list.command';

/**
 * The commands of Cyborg's generic-driver spec (install-driver,
 * uninstall-driver, update-driver, driver-list, service-list,
 * discover-services, attach-instance, detach-instance), each a read or a
 * job through the running ledger's API.
 */
export function registerGenericDriverCommands(program: Command): void {
  registerDriverJobCommands(program);
  registerDriverList(program);
  registerServiceList(program);
  registerDiscoverServices(program);
  registerInstanceCommands(program);
}
