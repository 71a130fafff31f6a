import { Global, Module } from '@nestjs/common';
import { ConfigError, type LedgerConfig } from '@ledger/config';
import { DEVICE_CLEANING_POLICY, DEVICE_TYPES, type DeviceCleaningPolicy, PARTITION_RECLAIM_IDLE_MS } from '@ledger/inventory';
import type { SqlDatabase } from '@ledger/processing';
import { InventoryQueries } from '@ledger/projections/inventory';
import { LEDGER_CONFIG, READ_MODEL_DB } from '../infrastructure/tokens';

/**
 * LEDGER_CLEAN_DEVICE_TYPES over the device's type in the inventory read
 * model. A device is reported long before anything on it can be claimed, so
 * the read model knows its type by its release. Asked afresh each time: a
 * card swapped at the same address keeps the uuid and may change type.
 */
export function deviceCleaningPolicy(types: readonly string[], queries: Pick<InventoryQueries, 'getDevice'>): DeviceCleaningPolicy {
  const unknown = types.find((type) => !(DEVICE_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) throw new ConfigError('LEDGER_CLEAN_DEVICE_TYPES', `${unknown} is not a device type (${DEVICE_TYPES.join(', ')})`);
  return {
    async cleansAfterRelease(deviceUuid) {
      if (types.length === 0) return false;
      const device = await queries.getDevice(deviceUuid.toLowerCase());
      return device !== undefined && types.includes(device.type);
    },
  };
}

/** Supplies the inventory commands' DEVICE_CLEANING_POLICY (the release and the fence ask it) and LEDGER_PARTITION_RECLAIM's wait (the release reads it). */
@Global()
@Module({
  providers: [
    {
      provide: DEVICE_CLEANING_POLICY,
      inject: [LEDGER_CONFIG, READ_MODEL_DB],
      useFactory: (config: LedgerConfig, db: SqlDatabase) => deviceCleaningPolicy(config.cleanDeviceTypes, new InventoryQueries(db)),
    },
    { provide: PARTITION_RECLAIM_IDLE_MS, inject: [LEDGER_CONFIG], useFactory: (config: LedgerConfig) => config.partitionReclaimIdleMs },
  ],
  exports: [DEVICE_CLEANING_POLICY, PARTITION_RECLAIM_IDLE_MS],
})
export class DeviceCleaningPolicyModule {}
