import type { DesiredProvider } from './desired-placement';

/** Placement accepts only names with this prefix from clients; the others are standard (os-resource-classes, os-traits). */
export const CUSTOM_PREFIX = 'CUSTOM_';

export const isCustomName = (name: string): boolean => name.startsWith(CUSTOM_PREFIX);

/** The custom resource classes and traits some desired provider needs, which must exist before they are used. */
export interface CustomNames {
  readonly resourceClasses: ReadonlySet<string>;
  readonly traits: ReadonlySet<string>;
}

export function customNamesOf(providers: Iterable<DesiredProvider>): CustomNames {
  const resourceClasses = new Set<string>();
  const traits = new Set<string>();
  for (const provider of providers) {
    if (isCustomName(provider.resourceClass)) resourceClasses.add(provider.resourceClass);
    for (const trait of provider.traits) if (isCustomName(trait)) traits.add(trait);
  }
  return { resourceClasses, traits };
}
