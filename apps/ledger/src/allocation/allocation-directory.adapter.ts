import { Inject, Injectable } from '@nestjs/common';
import type { AllocationDirectory, BindableBitstream, InventoryAttachHandle, ProviderDescription } from '@ledger/allocation';
import type { SqlDatabase } from '@ledger/processing';
import { mayBeLoaded, PROGRAMMING_SETTINGS, type ProgrammingSettings } from '@ledger/programming';
import { arqProjection, ArqQueries } from '@ledger/projections/arqs';
import { BitstreamQueries, type BitstreamView, bitstreamsProjection } from '@ledger/projections/bitstreams';
import { InventoryQueries, inventoryProjection } from '@ledger/projections/inventory';
import { PlacementQueries, placementProjection } from '@ledger/projections/placement';
import { ConsistencyService } from '../http/consistency.service';
import { READ_MODEL_DB } from '../infrastructure/tokens';

// Placement's read model keeps whether a host is fenced.
const DIRECTORY_PROJECTIONS = [inventoryProjection.name, arqProjection.name, bitstreamsProjection.name, placementProjection.name];

/** The allocation commands' view of the read models: providers and their handles, an instance's requests, bitstreams. */
@Injectable()
export class ReadModelAllocationDirectory implements AllocationDirectory {
  private readonly inventory: InventoryQueries;
  private readonly arqs: ArqQueries;
  private readonly bitstreams: BitstreamQueries;
  private readonly placement: PlacementQueries;

  constructor(
    @Inject(READ_MODEL_DB) db: SqlDatabase,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Inject(PROGRAMMING_SETTINGS) private readonly programming: ProgrammingSettings,
  ) {
    this.inventory = new InventoryQueries(db);
    this.arqs = new ArqQueries(db);
    this.bitstreams = new BitstreamQueries(db);
    this.placement = new PlacementQueries(db);
  }

  /** Waits only for the read models this directory reads. */
  catchUp(): Promise<void> {
    return this.consistency.awaitFresh(DIRECTORY_PROJECTIONS);
  }

  async providerByRpUuid(rpUuid: string): Promise<ProviderDescription | undefined> {
    const deployable = await this.inventory.findDeployableByRpUuid(rpUuid);
    const device = deployable && (await this.inventory.getDevice(deployable.deviceUuid));
    const hostFenced = deployable !== undefined && (await this.placement.isFenced(deployable.hostname));
    return (
      deployable &&
      device && {
        deployableUuid: deployable.uuid,
        name: deployable.name,
        deviceUuid: deployable.deviceUuid,
        hostname: deployable.hostname,
        resourceClass: deployable.resourceClass,
        traits: deployable.traits,
        deviceHealth: deployable.deviceHealth,
        deviceHealthReason: deployable.deviceHealthReason,
        agentLost: deployable.agentLost,
        hostFenced,
        capacity: deployable.deviceCapacity ?? {},
        pciAddress: device.pciAddress,
        shell: { loadedInterfaceId: device.shellInterfaceId, boardInfo: device.boardInfo },
        regionBitstreamId: deployable.bitstreamId,
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
      partition: handle.partition,
    }));
  }

  async arqsOfInstance(instanceUuid: string) {
    return (await this.arqs.list('all-projects', { instanceUuid })).map((arq) => ({ uuid: arq.uuid, projectId: arq.projectId, state: arq.state }));
  }

  async bitstream(bitstreamId: string): Promise<BindableBitstream | undefined> {
    const bitstream = await this.bitstreams.getBitstream(bitstreamId);
    return bitstream && this.bindable([bitstream])[0];
  }

  async bitstreamsOfFunction(functionId: string): Promise<BindableBitstream[]> {
    return this.bindable(await this.bitstreams.listBitstreams({ functionId }));
  }

  /** Trusted now, not only when registered: the view's signature says whether its key was revoked since, and mayBeLoaded is the rule. */
  private bindable(bitstreams: readonly BitstreamView[]): BindableBitstream[] {
    return bitstreams.map((bitstream) => ({
      bitstreamId: bitstream.bitstreamId,
      sha256: bitstream.sha256,
      origin: bitstream.origin,
      functionId: bitstream.functionId,
      interfaceId: bitstream.interfaceId,
      retired: bitstream.state === 'retired',
      trusted: mayBeLoaded(bitstream.signature, this.programming.allowUnsigned),
    }));
  }
}
