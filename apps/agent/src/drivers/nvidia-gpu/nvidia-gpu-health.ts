import type { DeviceHealthCause } from '@ledger/inventory';
import type { PciFunction } from '../../discovery/pci-function';
import { pciSlot } from '../../discovery/pci-address';
import type { DeviceHealthSample } from '../accelerator-driver';
import { pciHealthSample } from '../pci/pci-health';
import type { NvidiaSmiReading } from './nvidia-smi';
import type { XidFinding } from './nvidia-xid';

const SEVERITY = { ok: 0, degraded: 1, failed: 2 } as const;

interface Finding {
  readonly health: 'ok' | 'degraded' | 'failed';
  readonly reason: string | null;
  readonly cause?: DeviceHealthCause;
}

/**
 * One GPU's health from everything known about it: AER (any PCI device),
 * nvidia-smi (uncorrected ECC, a row remap pending → degraded; a row remap
 * failed, or a GPU on the nvidia driver that nvidia-smi cannot see →
 * failed) and the kernel log's Xids. The worst finding wins, and its cause
 * is the one the ledger's health policy judges (the first of the worst,
 * in the order above); every reason is kept. A GPU on vfio-pci belongs to
 * an instance and is invisible to nvidia-smi by design, so only AER applies.
 */
export function nvidiaGpuHealth(gpu: PciFunction, smi: NvidiaSmiReading, xids: ReadonlyMap<string, XidFinding>): DeviceHealthSample {
  const base = pciHealthSample(gpu);
  const findings: Finding[] = [{ health: base.health, reason: base.reason, ...(base.cause ? { cause: base.cause } : {}) }];
  let telemetry: Record<string, number> = { ...base.telemetry };
  if (gpu.driver === 'nvidia' && smi.status === 'failed') findings.push({ health: 'degraded', reason: smi.reason, cause: { kind: 'unresponsive', detail: 'nvidia-smi failed' } });
  if (gpu.driver === 'nvidia' && smi.status === 'ok') {
    const seen = smi.gpus.get(gpu.address);
    if (!seen) findings.push({ health: 'failed', reason: 'bound to nvidia but not visible to nvidia-smi', cause: { kind: 'unresponsive', detail: 'not visible to nvidia-smi' } });
    if (seen?.eccUncorrected) {
      findings.push({ health: 'degraded', reason: `ECC: ${seen.eccUncorrected} uncorrected error(s)`, cause: { kind: 'ecc', detail: 'uncorrected', count: seen.eccUncorrected } });
    }
    if (seen?.remapFailed) findings.push({ health: 'failed', reason: 'row remapping failed', cause: { kind: 'row-remap', detail: 'failed' } });
    if (seen?.remapPending) findings.push({ health: 'degraded', reason: 'row remap pending a GPU reset', cause: { kind: 'row-remap', detail: 'pending' } });
    if (seen) {
      const readings: Record<string, number | null> = {
        utilizationPct: seen.utilizationPct,
        temperatureC: seen.temperatureC,
        memoryUsedGiB: seen.memoryUsedMiB === null ? null : round(seen.memoryUsedMiB / 1024),
        memoryTotalGiB: seen.memoryTotalMiB === null ? null : round(seen.memoryTotalMiB / 1024),
        powerW: seen.powerW,
        eccUncorrected: seen.eccUncorrected,
      };
      telemetry = { ...telemetry, ...Object.fromEntries(Object.entries(readings).filter((entry): entry is [string, number] => entry[1] !== null)) };
    }
  }
  const xid = xids.get(pciSlot(gpu.address));
  if (xid) findings.push({ health: xid.health, reason: xid.reason, cause: { kind: 'xid', code: xid.xid } });
  const worst = findings.reduce((a, b) => (SEVERITY[b.health] > SEVERITY[a.health] ? b : a));
  const reasons = findings.filter((finding) => finding.health !== 'ok').map((finding) => finding.reason);
  return {
    pciAddress: gpu.address,
    health: worst.health,
    reason: reasons.length > 0 ? reasons.join('; ') : null,
    ...(worst.cause ? { cause: worst.cause } : {}),
    telemetry,
  };
}

const round = (value: number): number => Math.round(value * 10) / 10;
