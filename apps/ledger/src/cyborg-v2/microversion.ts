import { LedgerError } from '@ledger/kernel';

/** Cyborg's v2 microversions we serve (CYBORG-V2.md §1.1): 2.0 base … 2.3 device status. */
export const MIN_MICROVERSION = { major: 2, minor: 0 } as const;
export const MAX_MICROVERSION = { major: 2, minor: 3 } as const;
export const SERVICE_TYPE = 'accelerator';

export interface Microversion {
  readonly major: number;
  readonly minor: number;
}

export const formatMicroversion = (version: Microversion): string => `${version.major}.${version.minor}`;

export const atLeast = (version: Microversion, minor: number): boolean => version.minor >= minor;

export const versionNotAcceptable = (detail: string) => new LedgerError('V2.VERSION_NOT_ACCEPTABLE', 406, detail);

/**
 * The microversion a request asks for, from `OpenStack-API-Version`. As in
 * Cyborg: no header (or none for our service) means 2.0, `latest` means the
 * maximum, a bare `2.N` is accepted, and anything else — garbage, another
 * major, or a version outside 2.0–2.3 — is refused with 406. The header may
 * name several services (`compute 2.1, accelerator 2.2`).
 */
export function parseMicroversion(header: string | string[] | undefined): Microversion {
  const values = (Array.isArray(header) ? header : header === undefined ? [] : [header])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  let requested: string | undefined;
  for (const value of values) {
    const [first, ...rest] = value.split(/\s+/);
    if (first.toLowerCase() === SERVICE_TYPE) requested = rest.join(' ');
    else if (rest.length === 0) requested ??= first; // a bare version, as Cyborg tolerates
  }
  if (requested === undefined) return MIN_MICROVERSION;
  if (requested.toLowerCase() === 'latest') return MAX_MICROVERSION;
  const match = /^(\d+)\.(\d+)$/.exec(requested);
  if (!match) throw versionNotAcceptable(`Invalid API version ${requested}: use ${SERVICE_TYPE} 2.N`);
  const version = { major: Number(match[1]), minor: Number(match[2]) };
  if (version.major !== MAX_MICROVERSION.major || version.minor > MAX_MICROVERSION.minor) {
    throw versionNotAcceptable(
      `Version ${requested} was requested but the minimum supported version is ${formatMicroversion(MIN_MICROVERSION)} and the maximum is ${formatMicroversion(MAX_MICROVERSION)}`,
    );
  }
  return version;
}
