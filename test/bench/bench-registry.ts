import type { BenchModule } from './bench-module';
import { agentsReplicasBench } from './modules/agents-replicas.bench';
import { agentsScaleBench } from './modules/agents-scale.bench';
import { appendBatchBench } from './modules/append-batch.bench';
import { appendConcurrencyBench } from './modules/append-concurrency.bench';
import { auditBench } from './modules/audit.bench';
import { ceilingsBench } from './modules/ceilings.bench';
import { cleanCycleBench } from './modules/clean-cycle.bench';
import { consoleBench } from './modules/console.bench';
import { cyborgV2Bench } from './modules/cyborg-v2.bench';
import { developerToolsBench } from './modules/developer-tools.bench';
import { graphqlBench } from './modules/graphql.bench';
import { kafkaRelayBench } from './modules/kafka-relay.bench';
import { metricsBench } from './modules/metrics.bench';
import { loggingOverheadBench } from './modules/logging-overhead.bench';
import { keystoneBench } from './modules/keystone.bench';
import { fencePlacementBench } from './modules/fence-placement.bench';
import { placementBench } from './modules/placement.bench';
import { partitionCarveBench } from './modules/partition-carve.bench';
import { projectionRebuildBench } from './modules/projection-rebuild.bench';
import { readAllBench } from './modules/read-all.bench';
import { sagaBench } from './modules/saga.bench';
import { tracingBench } from './modules/tracing.bench';
import { v2SequentialBench } from './modules/v2-sequential.bench';

/**
 * Every benchmark module, in run and output order: the developer tools
 * first (wall-clock latencies, taken before the other modules heat the
 * machine), the ceilings, then what is compared with them, then the
 * auditor's long log, then the HTTP API (Cyborg's v2, then what metrics,
 * logging and tracing cost it, then GraphQL, then the web console in
 * Chromium, then Cyborg's v2 behind Keystone), then
 * the workflow runtime's saga, then carving a MIG partition in a bind, then the simulated fleet (one ledger, then
 * 100,000 hosts against replicas), then Placement, then a device's clean
 * cycle, then the Kafka relay.
 */
export const BENCH_MODULES: readonly BenchModule[] = [
  developerToolsBench,
  ceilingsBench,
  appendConcurrencyBench,
  appendBatchBench,
  readAllBench,
  projectionRebuildBench,
  auditBench,
  cyborgV2Bench,
  v2SequentialBench,
  metricsBench,
  loggingOverheadBench,
  tracingBench,
  graphqlBench,
  consoleBench,
  keystoneBench,
  sagaBench,
  partitionCarveBench,
  agentsScaleBench,
  agentsReplicasBench,
  placementBench,
  cleanCycleBench,
  fencePlacementBench,
  kafkaRelayBench,
];
