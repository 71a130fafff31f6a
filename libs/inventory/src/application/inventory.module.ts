import { Module } from '@nestjs/common';
import { AggregateCache } from '@ledger/eventstore';
import type { DeviceState } from '../domain/device.decider';
import type { HostInventoryState } from '../domain/host-inventory.state';
import { ClaimAttachHandleHandler, ReleaseAttachHandleHandler } from './attach-handle-claims/attach-handle-claims.handlers';
import { ReleaseCarveHandler, ReserveCarveHandler } from './carve-partition/carve-partition.handlers';
import { deviceCommandsProvider } from './device-commands';
import { deviceMaintenanceProvider } from './device-maintenance';
import { DisableDeviceHandler } from './disable-device/disable-device.handler';
import { EnableDeviceHandler } from './enable-device/enable-device.handler';
import { DEVICE_CACHE, HOST_INVENTORY_CACHE, UNCHANGED_REPORT_MEMO } from './inventory.tokens';
import { ConfirmUnchangedReportHandler } from './report-host/confirm-unchanged-report.handler';
import { ReportHostHandler } from './report-host/report-host.handler';
import { UnchangedReportMemo } from './report-host/unchanged-report.memo';
import { CreateAttributeHandler, DeleteAttributeHandler } from './attributes/attribute.handlers';
import { hostLivenessCommandsProvider } from './agent-liveness/host-liveness-commands';
import { RecordAgentSeenHandler } from './agent-liveness/record-agent-seen.handler';
import { RecordHeartbeatHandler } from './record-heartbeat/record-heartbeat.handler';
import { HostProvisioningHandler } from './host-provisioning/host-provisioning.handler';
import { ClearDeviceHealthHandler } from './clear-device-health/clear-device-health.handler';
import { FenceHostHandler, hostFenceCommandsProvider, UnfenceHostHandler } from './fence-host/fence-host.handlers';
import { ReleaseCleanHandler, RetryCleanHandler } from './clean-device/clean-device.handlers';
import { ReclaimWorkflowCommands } from './reclaim-partition/reclaim-workflow.commands';

/**
 * The inventory command side. Expects the app to import
 * `CqrsModule.forRoot()` and to provide `EVENT_STORE` and `STREAM_LOCKS`
 * globally, `DEVICE_CLEANING_POLICY` where released devices are cleaned, and
 * `PARTITION_RECLAIM_IDLE_MS` where idle partitions are reclaimed.
 */
@Module({
  providers: [
    // Sized for the 10,000-host scale target with headroom; states are immutable, so sharing them is safe.
    { provide: HOST_INVENTORY_CACHE, useFactory: () => new AggregateCache<HostInventoryState>(20_000) },
    { provide: DEVICE_CACHE, useFactory: () => new AggregateCache<DeviceState>(50_000) },
    { provide: UNCHANGED_REPORT_MEMO, useFactory: () => new UnchangedReportMemo(20_000) },
    ReportHostHandler,
    ConfirmUnchangedReportHandler,
    deviceCommandsProvider,
    deviceMaintenanceProvider,
    DisableDeviceHandler,
    EnableDeviceHandler,
    ClaimAttachHandleHandler,
    ReleaseAttachHandleHandler,
    ReserveCarveHandler,
    ReleaseCarveHandler,
    CreateAttributeHandler,
    DeleteAttributeHandler,
    hostLivenessCommandsProvider,
    hostFenceCommandsProvider,
    RecordHeartbeatHandler,
    RecordAgentSeenHandler,
    HostProvisioningHandler,
    FenceHostHandler,
    UnfenceHostHandler,
    RetryCleanHandler,
    ReleaseCleanHandler,
    ClearDeviceHealthHandler,
    ReclaimWorkflowCommands,
  ],
  // DEVICE_CACHE: the bind decides over a device's attach handles with the same cache as the device commands.
  exports: [HOST_INVENTORY_CACHE, DEVICE_CACHE],
})
export class InventoryModule {}
