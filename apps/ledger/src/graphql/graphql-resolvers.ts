import type { Type } from '@nestjs/common';
import { ArqsResolver } from './arqs/arqs.resolver';
import { DeviceArqsResolver } from './arqs/device-arqs.resolver';
import { BitstreamsResolver } from './bitstreams/bitstreams.resolver';
import { DeployablesResolver } from './deployables/deployables.resolver';
import { DeviceDeployablesResolver } from './deployables/device-deployables.resolver';
import { DeviceHistoryResolver } from './device-history/device-history.resolver';
import { DeviceProfilesResolver } from './device-profiles/device-profiles.resolver';
import { DevicesResolver } from './devices/devices.resolver';
import { HostDevicesResolver } from './devices/host-devices.resolver';
import { HostsResolver } from './hosts/hosts.resolver';
import { JobsResolver } from './jobs/jobs.resolver';
import { HostPlacementResolver } from './placement/host-placement.resolver';
import { QuotaResolver } from './quota/quota.resolver';
import { UsageResolver } from './usage/usage.resolver';
import { WorkflowsResolver } from './workflows/workflows.resolver';

/** Every resolver of /graphql: the schema is built from these (at start-up and by `npm run graphql:schema`). */
export const GRAPHQL_RESOLVERS: readonly Type[] = [
  HostsResolver,
  HostDevicesResolver,
  HostPlacementResolver,
  DevicesResolver,
  DeviceDeployablesResolver,
  DeviceArqsResolver,
  DeployablesResolver,
  DeviceProfilesResolver,
  DeviceHistoryResolver,
  UsageResolver,
  ArqsResolver,
  QuotaResolver,
  WorkflowsResolver,
  JobsResolver,
  BitstreamsResolver,
];
