import { numericIdOf } from '@ledger/inventory';
import type { AttributeView, DeployableView, DeviceView } from '@ledger/projections/inventory';
import { cyborgLinks, cyborgTime } from '../cyborg-representation';
import { atLeast, type Microversion } from '../microversion';

/**
 * Cyborg's Device, field for field in Cyborg's order. `vendor` is the PCI
 * vendor id as real drivers report it (lower-case hex, no `0x`);
 * `std_board_info` is the reported board info as a JSON string; `status`
 * exists from microversion 2.3 (CYBORG-V2.md §1.1).
 */
export function cyborgDevice(device: DeviceView, baseUrl: string, version: Microversion, withStatus = atLeast(version, 3)) {
  return {
    uuid: device.uuid,
    type: device.type,
    vendor: device.vendorId,
    model: device.model,
    std_board_info: JSON.stringify(device.boardInfo),
    vendor_board_info: device.vendorBoardInfo,
    hostname: device.hostname,
    ...(withStatus ? { status: device.status } : {}),
    links: cyborgLinks(baseUrl, 'devices', device.uuid),
    created_at: cyborgTime(device.createdAt),
    updated_at: cyborgTime(device.updatedAt),
  };
}

/**
 * Cyborg's Deployable. Integer ids are derived from uuids (numericIdOf);
 * `attributes_list` is a real JSON list of one-key objects, not Cyborg's
 * string holding one (CYBORG-V2.md §10). No `id` field: the client would
 * show it as the uuid (§11).
 */
export function cyborgDeployable(deployable: DeployableView, attributes: readonly AttributeView[], baseUrl: string) {
  return {
    uuid: deployable.uuid,
    parent_id: null,
    root_id: null,
    name: deployable.name,
    num_accelerators: deployable.count,
    device_id: numericIdOf(deployable.deviceUuid),
    attributes_list: attributes.map((attribute) => ({ [attribute.key]: attribute.value })),
    rp_uuid: deployable.rpUuid,
    driver_name: deployable.driverName,
    // The registered bitstream the region was last loaded with (inventory.RegionProgrammed); null as in Cyborg until one is.
    bitstream_id: deployable.bitstreamId,
    links: cyborgLinks(baseUrl, 'deployables', deployable.uuid, true),
    created_at: cyborgTime(deployable.createdAt),
    updated_at: cyborgTime(deployable.updatedAt),
  };
}

export interface AttributeFields {
  readonly uuid: string;
  readonly deployableId: number;
  readonly key: string;
  readonly value: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Cyborg's Attribute. */
export function cyborgAttribute(attribute: AttributeFields, baseUrl: string) {
  return {
    uuid: attribute.uuid,
    deployable_id: attribute.deployableId,
    key: attribute.key,
    value: attribute.value,
    links: cyborgLinks(baseUrl, 'attributes', attribute.uuid),
    created_at: cyborgTime(attribute.createdAt),
    updated_at: cyborgTime(attribute.updatedAt),
  };
}
