import { booleanSetting, type Env, integerSetting, nonEmpty, urlSetting } from './env-values';

/** How the ledger keeps OpenStack Placement in step with it (docs/placement.md). */
export interface PlacementConfig {
  /**
   * LEDGER_PLACEMENT_URL: Placement's endpoint (e.g. http://placement:8778).
   * Unset: the reconciler is off, and the ledger says so at start.
   */
  readonly url?: string;
  /** LEDGER_PLACEMENT_TOKEN (admin): sent as X-Auth-Token; `admin` is what Placement's noauth2 accepts. */
  readonly token: string;
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

export function loadPlacementConfig(env: Env): PlacementConfig {
  return {
    url: urlSetting(env, 'LEDGER_PLACEMENT_URL'),
    token: nonEmpty(env.LEDGER_PLACEMENT_TOKEN) ?? 'admin',
    resyncSeconds: integerSetting(env, 'LEDGER_PLACEMENT_RESYNC_SECONDS', 5, 1, 3600),
    concurrency: integerSetting(env, 'LEDGER_PLACEMENT_CONCURRENCY', 4, 1, 256),
    createComputeNodes: booleanSetting(env, 'LEDGER_PLACEMENT_CREATE_COMPUTE_NODES', false),
    timeoutMs: integerSetting(env, 'LEDGER_PLACEMENT_TIMEOUT_MS', 30_000, 100, 600_000),
  };
}
