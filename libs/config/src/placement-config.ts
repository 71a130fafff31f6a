import { booleanSetting, type Env, integerSetting } from './env-values';
import { loadServiceEndpoint, type ServiceEndpoint } from './service-endpoint';

/** How the ledger keeps OpenStack Placement in step with it (docs/placement.md). */
export interface PlacementConfig {
  /**
   * Where the reconciler writes; undefined: it is off, and the ledger says so at start.
   * LEDGER_PLACEMENT_URL: Placement's endpoint (e.g. http://placement:8778), with
   * LEDGER_PLACEMENT_TOKEN (admin; what Placement's noauth2 accepts) as X-Auth-Token.
   * With LEDGER_KEYSTONE_URL set the reconciler is on: the ledger's Keystone
   * token, at LEDGER_PLACEMENT_URL if set, else the catalog's `placement`
   * endpoint; LEDGER_PLACEMENT_TOKEN is not used.
   */
  readonly endpoint?: ServiceEndpoint;
  /**
   * LEDGER_PLACEMENT_RESYNC_SECONDS (5): how often every host is compared
   * with Placement. A compare lists the ledger's providers once and reads
   * deeper only where a generation moved, so it is cheap when nothing
   * changed; this bounds how long a hand-made change (drift) lasts.
   */
  readonly resyncSeconds: number;
  /** LEDGER_PLACEMENT_CONCURRENCY (4): hosts reconciled at once, each making one call at a time. Raise it for a Placement with several workers; the single-process placement-api accepts few connections at once (a listen backlog of 5). */
  readonly concurrency: number;
  /**
   * LEDGER_PLACEMENT_CREATE_COMPUTE_NODES (false): create a host's
   * compute-node provider when Nova has not (standalone deployments), with
   * uuid3(NAMESPACE_DNS, hostname). Otherwise the host waits for Nova.
   */
  readonly createComputeNodes: boolean;
  /** LEDGER_PLACEMENT_TIMEOUT_MS (30000): a call taking longer counts as Placement unavailable. */
  readonly timeoutMs: number;
}

export const PLACEMENT_SERVICE = { serviceType: 'placement', urlSetting: 'LEDGER_PLACEMENT_URL', tokenSetting: 'LEDGER_PLACEMENT_TOKEN', defaultToken: 'admin' } as const;

/** `keystone`: LEDGER_KEYSTONE_URL is set, so Placement is found through Keystone. */
export function loadPlacementConfig(env: Env, keystone = false): PlacementConfig {
  const endpoint = loadServiceEndpoint(env, keystone, PLACEMENT_SERVICE);
  return {
    ...(endpoint !== undefined ? { endpoint } : {}),
    resyncSeconds: integerSetting(env, 'LEDGER_PLACEMENT_RESYNC_SECONDS', 5, 1, 3600),
    concurrency: integerSetting(env, 'LEDGER_PLACEMENT_CONCURRENCY', 4, 1, 256),
    createComputeNodes: booleanSetting(env, 'LEDGER_PLACEMENT_CREATE_COMPUTE_NODES', false),
    timeoutMs: integerSetting(env, 'LEDGER_PLACEMENT_TIMEOUT_MS', 30_000, 100, 600_000),
  };
}
