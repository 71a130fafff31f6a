import type { Provider } from '@nestjs/common';

/** The device-profile command handlers, registered by AllocationModule. */
export const DEVICE_PROFILE_PROVIDERS: Provider[] = [];
