/**
 * The microversion each call is sent at: Cyborg's where it has one, else
 * the lowest that has what we need. 1.23 added error codes, which tell a
 * generation conflict from "in use"; 1.26 accepts reserved = total
 * (Cyborg's disable); 1.20 answers a create with the provider's body;
 * 1.18 filters listings by `required` traits, 1.14 by `in_tree`.
 */
export const MICROVERSION = {
  listProviders: '1.18',
  getProvider: '1.14',
  createProvider: '1.20',
  deleteProvider: '1.26',
  inventories: '1.26',
  traits: '1.26',
  usages: '1.26',
  allocations: '1.26',
  resourceClasses: '1.26',
  traitNames: '1.26',
} as const;
