import { type BeforeApplicationShutdown, Inject, Injectable, type InjectionToken, Logger, type OnApplicationBootstrap, type Provider } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import type { ProcessorLogger, SqlDatabase } from '@ledger/processing';
import type { DesiredPlacementSource } from '../domain/desired-placement';
import { HttpPlacementApi } from '../infrastructure/http-placement-api';
import { PlacementReconciler } from './placement-reconciler';

/** The reconciler, or null when LEDGER_PLACEMENT_URL is unset (then it is off). */
export const PLACEMENT_RECONCILER = Symbol('PLACEMENT_RECONCILER');

/** The app's tokens the reconciler is built from (libs never import the app's). */
export interface PlacementReconcilerTokens {
  /** A LedgerConfig. */
  readonly config: InjectionToken;
  /** The read-model SqlDatabase. */
  readonly readModelDb: InjectionToken;
  /** A DesiredPlacementSource (the placement projection's queries). */
  readonly desiredSource: InjectionToken;
}

/** Builds the reconciler from the settings, or says at start that it is off. */
export function createPlacementReconciler(
  config: LedgerConfig,
  db: SqlDatabase,
  source: DesiredPlacementSource,
  logger: ProcessorLogger = new Logger('Placement'),
): PlacementReconciler | null {
  const settings = config.placement;
  if (settings.url === undefined) {
    logger.log('Placement reconciler off: LEDGER_PLACEMENT_URL is not set, so nothing is written to Placement');
    return null;
  }
  logger.log(`Placement reconciler on: ${settings.url}, compare every ${settings.resyncSeconds} s, ${settings.concurrency} hosts at once`);
  return new PlacementReconciler({
    api: new HttpPlacementApi({ url: settings.url, token: settings.token, timeoutMs: settings.timeoutMs }),
    source,
    db,
    concurrency: settings.concurrency,
    resyncMs: settings.resyncSeconds * 1000,
    createComputeNodes: settings.createComputeNodes,
    instanceId: config.instanceId,
    leaseMs: config.processorLeaseMs,
    logger,
  });
}

/** Runs the periodic compare from bootstrap to shutdown (the processors role mounts it). */
@Injectable()
export class PlacementReconcilerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(PLACEMENT_RECONCILER) private readonly reconciler: PlacementReconciler | null) {}

  onApplicationBootstrap(): void {
    this.reconciler?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.reconciler?.stop();
  }
}

/** Providers for a Nest module: PLACEMENT_RECONCILER (for `reconcileHosts` and the status API) and its lifecycle. */
export function placementReconcilerProviders(tokens: PlacementReconcilerTokens): Provider[] {
  return [
    {
      provide: PLACEMENT_RECONCILER,
      inject: [tokens.config, tokens.readModelDb, tokens.desiredSource],
      useFactory: (config: LedgerConfig, db: SqlDatabase, source: DesiredPlacementSource) => createPlacementReconciler(config, db, source),
    },
    PlacementReconcilerLifecycle,
  ];
}
