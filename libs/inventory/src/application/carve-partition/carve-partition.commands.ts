import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { PartitioningKind } from '../../domain/host-report';

/** A bind's carve: the room provider it was given, and who carves. */
export interface ReserveCarveInput {
  readonly hostname: string;
  readonly deviceUuid: string;
  /** The carve-room deployable (`<parent>_<profile>_carvable`) the bind's provider is. */
  readonly deployableUuid: string;
  readonly bindId: string;
  readonly arqUuid: string;
}

/** Where the partition will be carved: what the carve job needs. */
export interface ReservedCarve {
  readonly kind: PartitioningKind;
  readonly profile: string;
  readonly profileId: number | null;
  readonly start: number;
  readonly slices: number;
  readonly pciAddress: string;
}

/**
 * Sets aside slices of the device for a bind's carve (the device's stream
 * decides which, from what its host last reported); answers the span, the
 * one already set aside on a repeat.
 */
export class ReserveCarveCommand extends LedgerCommand<ReservedCarve> {
  constructor(
    readonly input: ReserveCarveInput,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** Gives back the slices a bind set aside and did not carve; answers how many events it appended (0 or 1). */
export class ReleaseCarveCommand extends LedgerCommand<number> {
  constructor(
    readonly input: { readonly deviceUuid: string; readonly bindId: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
