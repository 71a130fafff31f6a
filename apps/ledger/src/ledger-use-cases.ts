import { type BindArqsOutside, bindArqsUseCase } from '@ledger/allocation/nest';
import { reclaimPartitionUseCase } from '@ledger/inventory/nest';
import { provisionHostUseCase } from '@ledger/provisioning/nest';
import type { UseCase } from '@ledger/workflows';

/** What the app gives each use case's reactors: every use case's outside, made once from the configuration (ledger-reactors.ts). */
export type LedgerOutside = BindArqsOutside;

/**
 * Every use case the ledger runs beyond its command handlers, in one list:
 * each brings its workflows, their command handlers and its reactors
 * (STYLE.md, "A use case in one folder"). Bind (docs/architecture.md,
 * "Following a bind"), then provisioning a host, then reclaiming idle
 * partitions (docs/partitions.md, "Reclaim").
 */
export const LEDGER_USE_CASES: readonly UseCase<LedgerOutside>[] = [bindArqsUseCase, provisionHostUseCase, reclaimPartitionUseCase];
