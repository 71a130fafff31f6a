import type { Provider } from '@nestjs/common';
import { AggregateCache, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import type { DeviceProfileState } from '../../domain/device-profile.decider';
import { CreateDeviceProfileHandler } from './create-device-profile.handler';
import { DeleteDeviceProfilesHandler } from './delete-device-profiles.handler';
import { DeviceProfileIndex } from './device-profile-index';
import { DEVICE_PROFILE_CACHE } from './device-profile.tokens';

/** The device-profile command handlers, registered by AllocationModule. */
export const DEVICE_PROFILE_PROVIDERS: Provider[] = [
  // Profiles are few (like flavors); the cache holds every one of them.
  { provide: DEVICE_PROFILE_CACHE, useFactory: () => new AggregateCache<DeviceProfileState>(10_000) },
  { provide: DeviceProfileIndex, inject: [EVENT_STORE], useFactory: (store: EventStore) => new DeviceProfileIndex(store) },
  CreateDeviceProfileHandler,
  DeleteDeviceProfilesHandler,
];
