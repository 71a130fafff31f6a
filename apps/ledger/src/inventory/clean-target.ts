import type { CleanTarget } from '@ledger/inventory/job-facts';
import type { InventoryQueries } from '@ledger/projections/inventory';

/** A clean job's target from the inventory read model: the device's host and address, and the released handles' kinds and addresses. */
export async function cleanTargetOf(queries: InventoryQueries, deviceUuid: string, handleUuids: readonly string[]): Promise<CleanTarget | undefined> {
  const device = await queries.getDevice(deviceUuid);
  if (!device) return undefined;
  const wanted = new Set(handleUuids);
  const deployables = (await queries.listDeployables({ deviceUuid, limit: 1000 })).items;
  const handles = (await Promise.all(deployables.map((deployable) => queries.listAttachHandles(deployable.uuid))))
    .flat()
    .filter((handle) => wanted.has(handle.uuid))
    .map((handle) => ({ uuid: handle.uuid, type: handle.kind, address: handle.address }));
  // A handle gone from the report since its release is cleaned as the device's function: what it held is still on the card.
  if (handles.length === 0) return { hostname: device.hostname, pciAddress: device.pciAddress, handles: [{ uuid: handleUuids[0]!, type: 'PCI', address: device.pciAddress }] };
  return { hostname: device.hostname, pciAddress: device.pciAddress, handles };
}
