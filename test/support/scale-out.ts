/**
 * The scale-out deployment in one place: the replicas `docker/compose.yml`
 * runs and `test/e2e/scale-out-processes.e2e-spec.ts` starts as processes
 * (in this order: an API replica first, before any processors replica has
 * prepared the read models). test/e2e/deployment-files.e2e-spec.ts holds
 * the compose file to it.
 */
export const SCALE_OUT_REPLICAS = [
  { instance: 'api-1', roles: 'api,conductor' },
  { instance: 'processors-1', roles: 'processors' },
  { instance: 'processors-2', roles: 'processors' },
  { instance: 'api-2', roles: 'api,conductor' },
] as const;
