import { basename } from 'node:path';
import { findSysfsPaths } from '../../discovery/sysfs-glob';
import type { ReportedPartitioning } from '@ledger/inventory';

/**
 * An FPGA's partial-reconfiguration regions as the report's partitioning
 * (issue 26): each region is a partition that always exists, one slice of
 * the card, programmed on its own. None when the card shows no region.
 */
export function fpgaRegionPartitioning(regions: readonly string[]): ReportedPartitioning | undefined {
  if (regions.length === 0) return undefined;
  return {
    kind: 'FPGA_REGION',
    enabled: true,
    slices: regions.length,
    profiles: [{ name: 'region', slices: 1, maxCount: regions.length }],
    partitions: regions.map((handle, start) => ({ profile: 'region', handle, start, slices: 1 })),
  };
}

/** The sysfs names of the regions matching any of `layouts` under `base` (`region1`, `intel-fpga-port.0`), in path order. */
export async function findFpgaRegions(base: string, layouts: readonly (readonly (string | RegExp)[])[]): Promise<string[]> {
  const paths = (await Promise.all(layouts.map((segments) => findSysfsPaths(base, segments)))).flat();
  return [...new Set(paths.map((path) => basename(path)))];
}
