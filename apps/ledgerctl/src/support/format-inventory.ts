import type { InventorySnapshot } from '@ledger/projections/inventory';

type Row = Record<string, unknown>;

/** The replayed inventory as an indented outline: host → device → deployable → attach handles. */
export function formatInventory(header: { asOf: string; position: number; eventsApplied?: number }, snapshot: InventorySnapshot): string {
  const applied = header.eventsApplied === undefined ? '' : `, ${header.eventsApplied} events applied`;
  const lines = [`inventory as of ${header.asOf} (position ${header.position}${applied})`];
  const byKey = (rows: readonly Row[], key: string) => {
    const groups = new Map<unknown, Row[]>();
    for (const row of rows) groups.set(row[key], [...(groups.get(row[key]) ?? []), row]);
    return groups;
  };
  // The read model keeps removed devices (flagged) so their maintenance state survives a re-discovery.
  const devicesByHost = byKey(snapshot.inv_devices.filter((device) => !Number(device.removed)), 'hostname');
  const deployablesByDevice = byKey(snapshot.inv_deployables, 'device_uuid');
  const handlesByDeployable = byKey(snapshot.inv_attach_handles, 'deployable_uuid');
  if (snapshot.inv_hosts.length === 0) lines.push('  (no hosts)');
  for (const host of snapshot.inv_hosts) {
    lines.push(`host ${host.hostname} (${host.status}, ${host.device_count} devices)`);
    for (const device of devicesByHost.get(host.hostname) ?? []) {
      const maintenance = device.status === 'maintaining' ? ` MAINTENANCE${device.disabled_reason ? `: ${device.disabled_reason}` : ''}` : '';
      lines.push(`  device ${device.uuid} ${device.type} ${device.vendor_id}:${device.product_id} ${device.model} @ ${device.pci_address}${maintenance}`);
      for (const deployable of deployablesByDevice.get(device.uuid) ?? []) {
        lines.push(`    deployable ${deployable.name} ${deployable.resource_class} x${deployable.count} traits ${deployable.traits}`);
        for (const handle of handlesByDeployable.get(deployable.uuid) ?? []) {
          const mdev = handle.mdev_type ? ` ${handle.mdev_type}#${handle.slot}` : '';
          lines.push(`      handle ${handle.kind} ${handle.address}${mdev}${Number(handle.in_use) ? ' (in use)' : ''}`);
        }
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
