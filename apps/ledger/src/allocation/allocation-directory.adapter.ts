import { Inject, Injectable } from '@nestjs/common';
import type { AllocationDirectory, InventoryAttachHandle, ProviderDescription } from '@ledger/allocation';
import type { SqlDatabase } from '@ledger/processing';
import { ArqQueries } from '@ledger/projections/arqs';
import { DeviceProfileQueries } from '@ledger/projections/device-profiles';
import { InventoryQueries } from '@ledger/projections/inventory';
import { ConsistencyService } from '../http/consistency.service';
import { READ_MODEL_DB } from '../infrastructure/tokens';

/** The allocation commands' view of the read models: profiles, providers and their handles, an instance's requests. */
@Injectable()
export class ReadModelAllocationDirectory implements AllocationDirectory {
  private readonly inventory: InventoryQueries;
  private readonly profiles: DeviceProfileQueries;
  private readonly arqs: ArqQueries;

  constructor(
    @Inject(READ_MODEL_DB) db: SqlDatabase,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {
    this.inventory = new InventoryQueries(db);
    this.profiles = new DeviceProfileQueries(db);
    this.arqs = new ArqQueries(db);
  }

  catchUp(): Promise<void> {
    return this.consistency.awaitFresh();
  }

  async deviceProfileByName(name: string) {
    const profile = await this.profiles.getByName(name);
    return profile && { uuid: profile.uuid, name: profile.name, groups: profile.groups };
  }

  async providerByRpUuid(rpUuid: string): Promise<ProviderDescription | undefined> {
    const deployable = await this.inventory.findDeployableByRpUuid(rpUuid);
    return (
      deployable && {
        deployableUuid: deployable.uuid,
        deviceUuid: deployable.deviceUuid,
        hostname: deployable.hostname,
        resourceClass: deployable.resourceClass,
        traits: deployable.traits,
        deviceHealth: deployable.deviceHealth,
        deviceHealthReason: deployable.deviceHealthReason,
        agentLost: deployable.agentLost,
        capacity: deployable.deviceCapacity ?? {},
      }
    );
  }

  async attachHandlesOf(deployableUuid: string): Promise<InventoryAttachHandle[]> {
    const handles = await this.inventory.listAttachHandlesOfDeployable(deployableUuid);
    // Free ones first: the device's stream decides, but offering a free handle first spares it a second look.
    return [...handles.filter((handle) => !handle.inUse), ...handles.filter((handle) => handle.inUse)].map((handle) => ({
      uuid: handle.uuid,
      kind: handle.kind,
      address: handle.address,
      physicalNetwork: handle.physicalNetwork,
      mdevType: handle.mdevType,
      slot: handle.slot,
    }));
  }

  async arqsOfInstance(instanceUuid: string) {
    return (await this.arqs.list('all-projects', { instanceUuid })).map((arq) => ({ uuid: arq.uuid, projectId: arq.projectId, state: arq.state }));
  }

}
