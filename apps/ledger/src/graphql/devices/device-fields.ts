import type { GraphQLResolveInfo } from 'graphql';
import { DEVICE_FIELDS, type DeviceField, type DeviceView, isDeviceField } from '@ledger/projections/inventory';
import { selectedNodeFields } from '../shared/selected-fields';

/** A device as a device list reads it for GraphQL: the fields the query selects, and always its uuid and host (for the fields under it). */
export type DeviceNode = Pick<DeviceView, 'uuid' | 'hostname'> & Partial<DeviceView>;

/** The DeviceView fields a device connection's query selects (every one when a fragment hides which); nested fields need only the uuid. */
export function selectedDeviceFields(info: GraphQLResolveInfo): readonly DeviceField[] {
  return selectedNodeFields(info)?.filter(isDeviceField) ?? DEVICE_FIELDS;
}
