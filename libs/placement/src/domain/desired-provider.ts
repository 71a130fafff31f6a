import type { DesiredHostPlacement, DesiredProvider, ReservationReason } from './desired-placement';
import { compareCodeUnits, desiredTraits, functionIdTrait, fpgaVendorOf } from './placement-traits';

/** The health policy's effects under which a device takes no new claims; `watch` keeps it schedulable. */
const UNUSABLE_HEALTH: readonly string[] = ['reserve', 'drain'];

/** What the ledger knows of one deployable and its surroundings: the facts the desired provider follows from. */
export interface ProviderFacts {
  readonly deployableUuid: string;
  readonly deviceUuid: string;
  /** The deployable's name, which is the provider's. */
  readonly name: string;
  /** Cyborg's `uuid3(NAMESPACE_DNS, name)`, as the inventory recorded it. */
  readonly rpUuid: string;
  readonly resourceClass: string;
  readonly count: number;
  readonly reportedTraits: readonly string[];
  readonly driverName: string | null;
  readonly deviceDisabled: boolean;
  /** The health policy's effect on the device's recorded health (`none`, `watch`, `reserve`, `drain`; docs/operations.md, "Health policy"). */
  readonly deviceHealth: string;
  readonly agentLost: boolean;
  /** The host is being provisioned, or its provisioning failed: it is not in service. */
  readonly hostOutOfService: boolean;
  /** An operator (or auto-fence) fenced the host: nothing on it is offered until it is unfenced. */
  readonly hostFenced: boolean;
  /** A program job on this deployable is requested or dispatched, not yet finished. */
  readonly programInFlight: boolean;
  /** The function id the last completed program job read back, when it finished after the report last changed the traits. */
  readonly programmedFunctionId: string | null;
  /** The device's released handles not yet clean, by status (`pending`, `cleaning`, `clean-failed`); absent or empty: none. */
  readonly dirtyHandles?: Readonly<Record<string, string>>;
}

/** Why the provider's inventory is reserved, in a fixed order; empty when it can be scheduled. */
export function reservationReasonsOf(facts: ProviderFacts): ReservationReason[] {
  const reasons: [boolean, ReservationReason][] = [
    [facts.deviceDisabled, 'disabled'],
    [UNUSABLE_HEALTH.includes(facts.deviceHealth), 'unhealthy'],
    [facts.agentLost, 'agent-lost'],
    [facts.hostOutOfService, 'out-of-service'],
    [facts.hostFenced, 'fenced'],
    [facts.programInFlight, 'reprogramming'],
    [dirtyIn(facts, (status) => status !== 'clean-failed') > 0, 'cleaning'],
    [dirtyIn(facts, (status) => status === 'clean-failed') > 0, 'clean-failed'],
  ];
  return reasons.filter(([holds]) => holds).map(([, reason]) => reason);
}

const dirtyIn = (facts: ProviderFacts, counts: (status: string) => boolean): number => Object.values(facts.dirtyHandles ?? {}).filter(counts).length;

/**
 * Units reserved: all of them for a reason that holds the whole provider;
 * for cleaning alone, one per dirty handle of the device, so a NIC's other
 * VFs stay schedulable while one is reset. Placement does not know which
 * deployable a handle belongs to, so each of a multi-region device's
 * deployables is held for the device's dirty handles: more reserved than
 * strictly needed, never less (the claim itself is decided per handle).
 */
function reservedUnits(facts: ProviderFacts, reasons: readonly ReservationReason[]): number {
  if (reasons.some((reason) => reason !== 'cleaning' && reason !== 'clean-failed')) return facts.count;
  return Math.min(facts.count, dirtyIn(facts, () => true));
}

/**
 * The child provider Cyborg would make for the deployable: its name and
 * uuid, one inventory of `count` with `max_unit = total`, the whole of it
 * reserved while any reason holds (Cyborg reserves only for maintenance),
 * and the traits (placement-traits.ts).
 */
export function desiredProviderOf(facts: ProviderFacts): DesiredProvider {
  const reservedBecause = reservationReasonsOf(facts);
  const vendor = facts.programmedFunctionId === null ? undefined : fpgaVendorOf(facts.reportedTraits, facts.driverName);
  const functionTrait = vendor === undefined || facts.programmedFunctionId === null ? null : functionIdTrait(vendor, facts.programmedFunctionId);
  return {
    uuid: facts.rpUuid,
    name: facts.name,
    deviceUuid: facts.deviceUuid,
    deployableUuid: facts.deployableUuid,
    resourceClass: facts.resourceClass,
    total: facts.count,
    reserved: reservedUnits(facts, reservedBecause),
    maxUnit: facts.count,
    traits: desiredTraits(facts.reportedTraits, functionTrait),
    reservedBecause,
  };
}

/** A host's desired state: its providers sorted by name. */
export function desiredHostPlacement(hostname: string, providers: readonly ProviderFacts[], position: number): DesiredHostPlacement {
  const sorted = providers.map(desiredProviderOf).sort((a, b) => compareCodeUnits(a.name, b.name));
  return { hostname, providers: sorted, position };
}
