import { type BeforeApplicationShutdown, Inject, Injectable, type InjectionToken, Logger, type OnApplicationBootstrap, type Provider } from '@nestjs/common';
import { KEYSTONE_SESSION, type KeystoneSession, serviceAccess } from '@ledger/auth';
import { describeServiceEndpoint, type LedgerConfig, PLACEMENT_SERVICE } from '@ledger/config';
import type { ProcessorLogger, SqlDatabase } from '@ledger/processing';
import type { DesiredPlacementSource } from '../domain/desired-placement';
import { HttpPlacementApi } from '../infrastructure/http-placement-api';
import { PlacementReconciler } from './placement-reconciler';

/** The reconciler, or null when it is off (neither LEDGER_PLACEMENT_URL nor LEDGER_KEYSTONE_URL is set). */
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

/** Builds the reconciler from the settings (and the ledger's Keystone session, in Keystone mode), or says at start that it is off. */
export function createPlacementReconciler(
  config: LedgerConfig,
  db: SqlDatabase,
  source: DesiredPlacementSource,
  keystoneSession: KeystoneSession | null = null,
  logger: ProcessorLogger = new Logger('Placement'),
): PlacementReconciler | null {
  const settings = config.placement;
  if (settings.endpoint === undefined) {
    logger.log('Placement reconciler off: neither LEDGER_PLACEMENT_URL nor LEDGER_KEYSTONE_URL is set, so nothing is written to Placement');
    return null;
  }
  const where = describeServiceEndpoint(settings.endpoint, PLACEMENT_SERVICE.tokenSetting);
  logger.log(`Placement reconciler on: ${where}, compare every ${settings.resyncSeconds} s, ${settings.concurrency} hosts at once`);
  return new PlacementReconciler({
    api: new HttpPlacementApi({ access: serviceAccess(settings.endpoint, keystoneSession), timeoutMs: settings.timeoutMs }),
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
      inject: [tokens.config, tokens.readModelDb, tokens.desiredSource, { token: KEYSTONE_SESSION, optional: true }],
      useFactory: (config: LedgerConfig, db: SqlDatabase, source: DesiredPlacementSource, session: KeystoneSession | null | undefined) =>
        createPlacementReconciler(config, db, source, session ?? null),
    },
    PlacementReconcilerLifecycle,
  ];
}
