/** Cyborg marks every provider it owns with this standard trait; the ledger's fixtures and Placement view keep it. */
export const OWNER_CYBORG = 'OWNER_CYBORG';

/**
 * A piece of a Placement trait name, which allows only [A-Z0-9_]:
 * `GRID T4-2B` → `GRID_T4_2B`, `physnet-1` → `PHYSNET_1`. Cyborg upper-cased
 * ids as they were, so a dashed interface id became an invalid trait.
 */
export function traitPart(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** An FPGA region, function or logic id in one form: 32 lower-case hex digits (sysfs prints DFL ids so; OPAE's older driver with dashes). */
export function normalizeFpgaId(text: string): string | undefined {
  const hex = text.trim().replace(/^0x/i, '').replace(/-/g, '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) ? hex : undefined;
}

/** An all-zero id: a blank region with nothing loaded. */
export const isBlankFpgaId = (id: string): boolean => /^0+$/.test(id);
