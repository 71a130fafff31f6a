import type { Logger } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { HttpNovaEvents, type NovaEvents } from '@ledger/allocation';
import { ArqHolds, arqHoldsReactor } from '@ledger/allocation/nest';
import { type KeystoneSession, serviceAccess } from '@ledger/auth';
import { describeServiceEndpoint, type LedgerConfig, NOVA_SERVICE } from '@ledger/config';
import type { EventStore, StreamLocks } from '@ledger/eventstore';
import { DEVICE_COMMANDS, hostFenceReactor } from '@ledger/inventory';
import { cleanJobsReactor, jobFactsReactor } from '@ledger/inventory/job-facts';
import { RequestJobCommand } from '@ledger/jobs';
import { type DeviceCommands, deviceCommands, hostDriversCommands } from '@ledger/inventory/nest';
import type { MessagePublisher } from '@ledger/messaging';
import type { PlacementReconciler } from '@ledger/placement';
import type { ProcessorRuntime, Reactor, SqlDatabase } from '@ledger/processing';
import { arqProjection, ArqQueries } from '@ledger/projections/arqs';
import { InventoryQueries } from '@ledger/projections/inventory';
import { PlacementQueries, placementProjection } from '@ledger/projections/placement';
import { cleanTargetOf } from '../inventory/clean-target';
import { deviceCleaningPolicy } from '../inventory/device-cleaning-policy.module';
import { kafkaRelayReactor } from '../messaging/kafka-relay.reactor';
import { placementReconcilerReactor } from '../placement/placement-reconciler.reactor';
import { LEDGER_USE_CASES, type LedgerOutside } from '../ledger-use-cases';

export interface ReactorDependencies {
  readonly store: EventStore;
  /** The process's one StreamLocks: the facts of jobs queue on a device's stream with its other commands. */
  readonly streamLocks: StreamLocks;
  readonly readModels: SqlDatabase;
  readonly projections: ProcessorRuntime;
  readonly logger: Logger;
  /** Finds the conductor's providers (the holds a request gives back), absent in a processors-only process. */
  readonly moduleRef: ModuleRef;
  /** Null when the reconciler is off (it said so when it was not made). */
  readonly placementReconciler: PlacementReconciler | null;
  /** Null when LEDGER_KAFKA_BROKERS is unset (its provider said so at start). */
  readonly publisher: MessagePublisher | null;
  /** The ledger's Keystone session (null when LEDGER_KEYSTONE_URL is unset): Nova's token and, unless LEDGER_NOVA_URL is set, its endpoint. */
  readonly keystoneSession: KeystoneSession | null;
}

/** Every reactor the ledger runs, in one list: the use cases' first, then those whose outside is configured (Placement, Kafka), then the job-facts and host-fence reactors and the holds a request gives back. */
export function ledgerReactors(config: LedgerConfig, deps: ReactorDependencies): Reactor[] {
  const arqs = new ArqQueries(deps.readModels);
  const outside: LedgerOutside = {
    nova: novaEvents(config, deps),
    store: deps.store,
    // What a poll of `?instance=` reads: Nova is never told before that poll would show it.
    projectionsReached: (position) => deps.projections.waitForPosition(position, { processors: [arqProjection.name] }),
    arqsOfInstance: async (instanceUuid) => (await arqs.list('all-projects', { instanceUuid })).map((arq) => arq.uuid),
  };
  // First, so status lists keep Nova's first.
  const reactors: Reactor[] = LEDGER_USE_CASES.flatMap((useCase) => useCase.reactors(outside));
  if (deps.placementReconciler) {
    const placement = new PlacementQueries(deps.readModels);
    reactors.push(
      placementReconcilerReactor({
        reconciler: deps.placementReconciler,
        projectionsReached: (position) => deps.projections.waitForPosition(position, { processors: [placementProjection.name] }),
        hostsOf: (keys) => placement.hostsOf(keys),
      }),
    );
  }
  if (deps.publisher) reactors.push(kafkaRelayReactor({ publisher: deps.publisher, topicPrefix: config.kafka.topicPrefix }));
  // The inventory's own device commands where this process runs them: a job's fact then keeps the device cache the binds decide
  // over current (recorded past it, the next claim on the device was refused by its expected version and decided again).
  const devices = processProvider<DeviceCommands>(deps.moduleRef, DEVICE_COMMANDS) ?? deviceCommands(deps.store, { locks: deps.streamLocks });
  const hostDrivers = hostDriversCommands(deps.store);
  const inventory = new InventoryQueries(deps.readModels);
  reactors.push(
    jobFactsReactor({
      store: deps.store,
      recordDeviceFact: (command, context) => devices.run(command, context),
      recordDriverOutcome: (command, context) => hostDrivers.run(command, context),
    }),
    hostFenceReactor({
      store: deps.store,
      runOnDevice: (command, context) => devices.run(command, context),
      cleaning: deviceCleaningPolicy(config.cleanDeviceTypes, inventory),
    }),
  );
  // The clean jobs are asked through the conductor's jobs commands (present where ArqHolds is: a conductor process).
  const commandBus = processProvider(deps.moduleRef, ArqHolds) && processProvider(deps.moduleRef, CommandBus);
  if (commandBus) {
    reactors.push(
      cleanJobsReactor({
        cleanTarget: (deviceUuid, handleUuids) => cleanTargetOf(inventory, deviceUuid, handleUuids),
        requestJob: (request, context) => commandBus.execute(new RequestJobCommand(request, context)),
        recordCleanFailed: (command, context) => devices.run(command, context),
      }),
    );
  }
  // After the configured ones (status lists keep Nova's first).
  const holds = processProvider(deps.moduleRef, ArqHolds);
  if (holds) reactors.push(arqHoldsReactor({ store: deps.store, holds }));
  else deps.logger.warn('this process runs no conductor: what unbound and deleted requests held is given back by a process that does');
  return reactors;
}

/** Nova's external-events API as configured, or null (said at start either way). */
function novaEvents(config: LedgerConfig, deps: ReactorDependencies): NovaEvents | null {
  if (!config.nova) {
    // Off by choice, as Kafka and Placement are: information, not a warning.
    deps.logger.log('Nova notifier off: neither LEDGER_NOVA_URL nor LEDGER_KEYSTONE_URL is set, so Nova is not told when binds finish (it falls back to polling)');
    return null;
  }
  deps.logger.log(`Nova is told when binds finish: ${describeServiceEndpoint(config.nova, NOVA_SERVICE.tokenSetting)}`);
  return new HttpNovaEvents({
    access: serviceAccess(config.nova, deps.keystoneSession),
    onPartial: (refused) => deps.logger.warn(`Nova refused some accelerator-request-bound events: ${JSON.stringify(refused)}`),
  });
}

/** A provider of a role this process may not run (the conductor, the inventory's commands), or undefined when it does not. */
function processProvider<T>(moduleRef: ModuleRef, type: symbol | (new (...args: any[]) => T)): T | undefined {
  try {
    return moduleRef.get(type, { strict: false });
  } catch {
    return undefined;
  }
}
