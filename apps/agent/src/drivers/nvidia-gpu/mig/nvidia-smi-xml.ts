import { normalizePciAddress } from '../../../discovery/pci-address';

/** One MIG device as `nvidia-smi -q -x` lists it: its index (the `Device N` of `nvidia-smi -L`) and the instances it is. */
export interface XmlMigDevice {
  readonly index: number;
  readonly gpuInstanceId: number;
  readonly computeInstanceId: number;
}

/** What `nvidia-smi -q -x` says about one GPU's MIG state. */
export interface XmlGpu {
  readonly pciAddress: string;
  readonly uuid: string | null;
  readonly productName: string | null;
  /** `Enabled` / `Disabled`; null where the GPU has no MIG (`N/A`). */
  readonly migCurrent: string | null;
  /** The mode after the next GPU reset; differs from `migCurrent` while a change waits for one. */
  readonly migPending: string | null;
  readonly migDevices: readonly XmlMigDevice[];
}

/**
 * Reads `nvidia-smi -q -x` (nvsmi_device_v11/v12 DTD) for the fields MIG
 * needs. nvidia-smi's XML is flat and attribute-free but for `<gpu id>`, so
 * a tag reader suffices; a GPU whose id is no PCI address is skipped, an
 * unreadable MIG device is left out, every other element is ignored.
 */
export function parseNvidiaSmiXml(xml: string): Map<string, XmlGpu> {
  const gpus = new Map<string, XmlGpu>();
  for (const match of xml.matchAll(/<gpu\s+id="([^"]+)"\s*>([\s\S]*?)<\/gpu>/g)) {
    const pciAddress = normalizePciAddress(match[1]);
    if (pciAddress === undefined) continue;
    const body = match[2];
    const migDevicesBlock = element(body, 'mig_devices') ?? '';
    // Outside the MIG devices, so a MIG device's own elements are never taken for the GPU's.
    const own = body.replace(/<mig_devices>[\s\S]*?<\/mig_devices>/, '');
    const migMode = element(own, 'mig_mode') ?? '';
    gpus.set(pciAddress, {
      pciAddress,
      uuid: value(element(own, 'uuid')),
      productName: value(element(own, 'product_name')),
      migCurrent: value(element(migMode, 'current_mig')),
      migPending: value(element(migMode, 'pending_mig')),
      migDevices: [...migDevicesBlock.matchAll(/<mig_device>([\s\S]*?)<\/mig_device>/g)].flatMap(([, device]) => {
        const index = integer(element(device, 'index'));
        const gpuInstanceId = integer(element(device, 'gpu_instance_id'));
        const computeInstanceId = integer(element(device, 'compute_instance_id'));
        return index === null || gpuInstanceId === null || computeInstanceId === null ? [] : [{ index, gpuInstanceId, computeInstanceId }];
      }),
    });
  }
  return gpus;
}

/** The text of the first `<name>` element, or undefined. */
function element(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return match?.[1];
}

/** Trimmed text, entities decoded; `N/A` and empty are null. */
function value(text: string | undefined): string | null {
  const trimmed = text?.trim().replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return trimmed === undefined || trimmed === '' || trimmed === 'N/A' ? null : trimmed;
}

function integer(text: string | undefined): number | null {
  const trimmed = text?.trim();
  return trimmed !== undefined && /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}
