import type { PciFunction } from '../../discovery/pci-function';
import type { DeviceHealthSample } from '../accelerator-driver';

/**
 * Health any PCI device can show without vendor tools: a fatal PCIe AER
 * error since boot makes it `degraded` (the link or device needed a
 * reset; vendor checks may say more). AER totals go out as telemetry.
 */
export function pciHealthSample(fn: PciFunction, extraTelemetry: Readonly<Record<string, number>> = {}): DeviceHealthSample {
  const aer = fn.aer;
  const telemetry = { ...(aer ? { aerFatal: aer.fatal, aerNonFatal: aer.nonFatal } : {}), ...extraTelemetry };
  if (aer && aer.fatal > 0) {
    return { pciAddress: fn.address, health: 'degraded', reason: `PCIe AER: ${aer.fatal} fatal error(s) since boot`, cause: { kind: 'aer', detail: 'fatal', count: aer.fatal }, telemetry };
  }
  return { pciAddress: fn.address, health: 'ok', reason: null, telemetry };
}
