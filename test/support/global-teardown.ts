import { PLACEMENT_HANDLE } from './global-setup';
import type { PlacementService } from './placement-service';

/** Stops what global-setup.ts started for the run. */
export default async function globalTeardown(): Promise<void> {
  const placement = (globalThis as Record<symbol, unknown>)[PLACEMENT_HANDLE] as PlacementService | undefined;
  delete (globalThis as Record<symbol, unknown>)[PLACEMENT_HANDLE];
  await placement?.dispose();
}
