/**
 * The events' TypeScript types, one namespace per context (`inventory.DeviceDiscovered`'s
 * data is `inventory.DeviceDiscovered['data']`). Type-only: they are the very
 * declarations the ledger records from, so they cannot drift; the JSON Schemas
 * in ../schemas are generated from them for consumers not written in TypeScript.
 */
export type * as allocation from '../../allocation/src/domain/arq.events';
export type * as deviceProfiles from '../../allocation/src/domain/device-profile.events';
export type * as inventory from '../../inventory/src/domain/inventory.events';
export type * as jobs from '../../jobs/src/domain/job.events';
export type * as programming from '../../programming/src/domain/programming.events';
export type * as quota from '../../quota/src/domain/quota.events';
export type * as workflow from '../../workflows/src/domain/workflow.events';
