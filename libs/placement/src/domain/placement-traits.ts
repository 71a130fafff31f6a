import { OWNER_TRAIT } from './desired-placement';

/** Cyborg's prefix of the trait that names the function loaded on an FPGA region. */
export const FUNCTION_ID_TRAIT_PREFIX = 'CUSTOM_FPGA_FUNCTION_ID_';

/** A piece of a trait name, which Placement allows only as [A-Z0-9_]: `intel-fpga` → `INTEL_FPGA`. */
const traitPart = (text: string): string =>
  text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/**
 * Who made the FPGA, as the function trait names it: the `CUSTOM_FPGA_<VENDOR>`
 * trait the deployable reports (the agent's drivers and Cyborg's report
 * `CUSTOM_FPGA_INTEL`, `CUSTOM_FPGA_XILINX`), else the driver's name up to its
 * first dash (Cyborg uses `driver_name.upper()`, whose names are `intel`,
 * `xilinx`). Undefined when neither says.
 */
export function fpgaVendorOf(reportedTraits: readonly string[], driverName: string | null): string | undefined {
  const vendorTrait = reportedTraits.map((trait) => /^CUSTOM_FPGA_([A-Z0-9]+)$/.exec(trait)?.[1]).find((vendor) => vendor !== undefined);
  if (vendorTrait !== undefined) return vendorTrait;
  const fromDriver = driverName === null ? '' : traitPart(driverName.split(/[-_]/)[0]);
  return fromDriver === '' ? undefined : fromDriver;
}

/**
 * The trait Cyborg puts on a provider after programming it:
 * `CUSTOM_FPGA_FUNCTION_ID_<VENDOR>_<FUNCTION>`. Cyborg upper-cases the id as
 * it is (a dashed id makes an invalid trait); here it is made a valid name,
 * as the agent's drivers do for the traits they report.
 */
export const functionIdTrait = (vendor: string, functionId: string): string => `${FUNCTION_ID_TRAIT_PREFIX}${traitPart(vendor)}_${traitPart(functionId)}`;

/**
 * The provider's traits: what the deployable reports, `OWNER_CYBORG` always,
 * and — when a program job finished after the report last changed the
 * traits — the programmed function instead of any function the report
 * named (Cyborg swaps the trait after programming; the agent's next report
 * then names the same function). Sorted, without duplicates.
 */
export function desiredTraits(reported: readonly string[], programmedFunctionTrait: string | null): string[] {
  const kept = programmedFunctionTrait === null ? reported : reported.filter((trait) => !trait.startsWith(FUNCTION_ID_TRAIT_PREFIX));
  const traits = new Set([OWNER_TRAIT, ...kept, ...(programmedFunctionTrait === null ? [] : [programmedFunctionTrait])]);
  return [...traits].sort(compareCodeUnits);
}

/** Code-unit order, independent of locale (and of the database's collation). */
export const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
