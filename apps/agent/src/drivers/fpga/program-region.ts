import type { ReportedPartitioning } from '@ledger/inventory';
import type { JobParams } from '../accelerator-driver';
import { invalidParams } from '../driver-errors';

/** A region a program job names, as the card reports it: its id and its place among the card's regions (a slot to OPAE). */
export interface ProgramRegion {
  readonly region: string;
  readonly slot: number;
}

/**
 * The region a program job names (`params.region`: a region partition's id
 * as this card reports it, or its index), found among the card's regions;
 * undefined when the job names none (a bind of a whole card). A region the
 * card does not report is refused before anything runs.
 */
export function programRegionParam(params: JobParams, partitioning: ReportedPartitioning | undefined): ProgramRegion | undefined {
  const raw = params.region;
  if (raw === undefined || raw === null) return undefined;
  const regions = partitioning?.kind === 'FPGA_REGION' ? partitioning.partitions : [];
  const found = regions.find((partition) => (typeof raw === 'number' ? partition.start === raw : partition.handle === raw));
  if (!found) {
    const known = regions.map((partition) => partition.handle).join(', ') || 'none';
    throw invalidParams(`region ${JSON.stringify(raw)} is not one of this card's regions (${known})`);
  }
  return { region: found.handle, slot: found.start };
}
