import type { DeviceFilter } from '@ledger/projections/inventory';

/** A device list's filter as the read model keeps vendor ids: without the `0x` people often write. */
export const withBareVendorId = <T extends DeviceFilter>(filter: T): T => ({ ...filter, vendor: filter.vendor?.replace(/^0x/i, '') });
