import type { ReportedDevice } from '@ledger/inventory';
import type { AcceleratorDriver, DeviceHealthSample, JobEvidence, JobParams } from '../../drivers/accelerator-driver';

/** An FPGA with two VFs, as a driver would report it. */
export function fakeFpga(pciAddress = '0000:5e:00.0', vfs = 2): ReportedDevice {
  const [bus] = pciAddress.split('.');
  return {
    type: 'FPGA',
    vendorId: '8086',
    productId: '09c4',
    model: 'Intel PAC Arria 10 GX',
    pciAddress,
    boardInfo: { interface_id: 'f3c99413-5081-4aad-bced-07eb84a6d0bb' },
    driver: 'intel-fpga-pci',
    numaNode: 0,
    deployables: [
      {
        resourceClass: 'FPGA',
        count: vfs,
        traits: ['CUSTOM_FPGA_INTEL'],
        attachHandles: Array.from({ length: vfs }, (_, vf) => ({ kind: 'VF' as const, address: `${bus}.${vf + 1}` })),
      },
    ],
  };
}

/**
 * A driver for the runtime's specs: reports what `devices` holds, answers
 * health from `samples`, records the operations it was asked for, and
 * carries them out with whatever `operations` says.
 */
export class FakeDriver implements AcceleratorDriver {
  devices: ReportedDevice[];
  samples: DeviceHealthSample[] = [];
  failDiscovery?: Error;
  readonly calls: { operation: string; params: JobParams }[] = [];
  readonly playbooks = { install: '/nonexistent/install.yml', uninstall: '/nonexistent/uninstall.yml' };
  program?: (params: JobParams) => Promise<JobEvidence>;
  configureVfs?: (params: JobParams) => Promise<JobEvidence>;

  constructor(
    readonly name: string,
    devices: ReportedDevice[] = [],
    operations: { program?: (params: JobParams) => Promise<JobEvidence>; configureVfs?: (params: JobParams) => Promise<JobEvidence> } = {},
  ) {
    this.devices = devices;
    if (operations.program) this.program = this.recorded('program', operations.program);
    if (operations.configureVfs) this.configureVfs = this.recorded('configureVfs', operations.configureVfs);
  }

  async discover(): Promise<ReportedDevice[]> {
    if (this.failDiscovery) throw this.failDiscovery;
    return this.devices;
  }

  async health(): Promise<DeviceHealthSample[]> {
    return this.samples;
  }

  private recorded(operation: string, carryOut: (params: JobParams) => Promise<JobEvidence>) {
    return (params: JobParams) => {
      this.calls.push({ operation, params });
      return carryOut(params);
    };
  }
}

/** A logger that keeps what it was told, for assertions. */
export function collectingLogger() {
  const lines: string[] = [];
  return {
    lines,
    log: (message: string) => lines.push(`log ${message}`),
    warn: (message: string) => lines.push(`warn ${message}`),
    error: (message: string) => lines.push(`error ${message}`),
  };
}
