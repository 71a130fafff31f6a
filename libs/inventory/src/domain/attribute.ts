import { NAMESPACE_LEDGER, uuidV5 } from '@ledger/kernel';
import type { DeployableDescription } from './device-snapshot';

/** Stable error codes of deployable attributes (Cyborg's /v2/attributes). */
export const AttributeErrorCodes = {
  /** The key or value breaks the attribute rules (400). */
  INVALID: 'ATTRIBUTE.INVALID',
  /** `rc` and `trait<N>` are discovered from the agent's report; an operator cannot set them (409). */
  RESERVED_KEY: 'ATTRIBUTE.RESERVED_KEY',
  /** The deployable already has an attribute with this key (409). */
  DUPLICATE_KEY: 'ATTRIBUTE.DUPLICATE_KEY',
  /** A discovered attribute changes only with the agent's report; it cannot be deleted (409). */
  DISCOVERED: 'ATTRIBUTE.DISCOVERED',
  /** No such attribute (404). */
  NOT_FOUND: 'ATTRIBUTE.NOT_FOUND',
  /** `deployable_id` names no deployable in the inventory (400). */
  UNKNOWN_DEPLOYABLE: 'ATTRIBUTE.UNKNOWN_DEPLOYABLE',
} as const;

export const ATTRIBUTE_KEY = /^[A-Za-z0-9_.:-]{1,255}$/;
export const MAX_ATTRIBUTE_VALUE_LENGTH = 255;

/** Keys the report owns: `rc` (resource class) and `trait0…N` (traits), as Cyborg's drivers name them. */
export const isDiscoveredAttributeKey = (key: string): boolean => key === 'rc' || /^trait\d+$/.test(key);

/** The attribute stream of an operator's attribute. */
export const attributeStream = (uuid: string): string => `attribute-${uuid}`;

/**
 * One uuid per (deployable, key): a discovered attribute keeps it across
 * reports and rebuilds, and an operator's second attribute with the same key
 * lands on the same stream, which refuses it.
 */
export const attributeUuidOf = (deployableUuid: string, key: string): string =>
  uuidV5(NAMESPACE_LEDGER, `attribute/${deployableUuid.toLowerCase()}/${key}`);

export interface AttributeEntry {
  readonly key: string;
  readonly value: string;
}

/** The attributes a report gives a deployable, in Cyborg's order: `rc`, then `trait0…N` in trait order. */
export const discoveredAttributesOf = (deployable: Pick<DeployableDescription, 'resourceClass' | 'traits'>): AttributeEntry[] => [
  { key: 'rc', value: deployable.resourceClass },
  ...deployable.traits.map((trait, index) => ({ key: `trait${index}`, value: trait })),
];
