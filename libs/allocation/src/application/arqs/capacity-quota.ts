/**
 * Device capacity is charged to the project's quota while a request is
 * bound, under its own consumer id so that it is released apart from the
 * request's unit count (which is held from create to delete).
 */
export const capacityConsumer = (arqUuid: string): string => `${arqUuid}:capacity`;

/** `{ memoryGiB: 80 }` → `{ "capacity:memoryGiB": 80 }`, whole non-negative amounts only. */
export function capacityResources(capacity: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(capacity)
      .filter(([, amount]) => Number.isInteger(amount) && amount > 0)
      .map(([name, amount]) => [`capacity:${name}`, amount]),
  );
}

/** The consumer ids a request may hold quota under. */
export const quotaConsumersOf = (arqUuid: string): string[] => [arqUuid, capacityConsumer(arqUuid)];
