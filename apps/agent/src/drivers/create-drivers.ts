import { join } from 'node:path';
import type { DriverName } from '../config/driver-names';
import { SysfsReader } from '../discovery/sysfs-reader';
import type { AcceleratorDriver } from './accelerator-driver';
import type { DriverContext, DriverDeps } from './driver-context';
import { DriverSettings } from './driver-settings';
import { genericPciDriver, parseGenericPciSettings } from './generic-pci/generic-pci.driver';
import { intelFpgaDriver } from './intel-fpga/intel-fpga.driver';
import { parseIntelFpgaSettings } from './intel-fpga/intel-fpga.settings';
import { intelQatDriver } from './intel-qat/intel-qat.driver';
import { nvidiaGpuDriver } from './nvidia-gpu/nvidia-gpu.driver';
import { parseNvidiaGpuSettings } from './nvidia-gpu/nvidia-gpu.settings';
import { simulatedDriver } from './simulated/simulated.driver';
import { parseSimulatedSettings } from './simulated/simulated.settings';
import { sriovNicDriver } from './sriov-nic/sriov-nic.driver';
import { parseSriovNicSettings } from './sriov-nic/sriov-nic.settings';
import { xilinxFpgaDriver } from './xilinx-fpga/xilinx-fpga.driver';
import { parseXilinxFpgaSettings } from './xilinx-fpga/xilinx-fpga.settings';

/** The part of the agent's configuration drivers are made from (runtime AgentConfig has these members). */
export interface DriversConfig {
  /** The drivers to enable, in priority order: where two report one PCI address, the first wins. */
  readonly drivers: readonly DriverName[];
  /** Per-driver settings, `{ "<driver>": { … } }` (AGENT_DRIVER_CONFIG). */
  readonly driverSettings?: Readonly<Record<string, unknown>>;
  readonly hostname: string;
  /** Drivers keep downloads and their bitstream cache under `<stateDir>/drivers/<name>`. */
  readonly stateDir: string;
  /** `<playbookDir>/<driver>/{install,uninstall}.yml`. */
  readonly playbookDir: string;
}

type DriverFactory = (context: DriverContext, settings: unknown) => AcceleratorDriver;

/** Every driver by name; the record type makes a driver name without a factory a compile error. */
const FACTORIES: Readonly<Record<DriverName, DriverFactory>> = {
  'nvidia-gpu': (context, settings) => nvidiaGpuDriver(context, parseNvidiaGpuSettings(settings)),
  'intel-fpga': (context, settings) => intelFpgaDriver(context, parseIntelFpgaSettings(settings, context.workDir)),
  'xilinx-fpga': (context, settings) => xilinxFpgaDriver(context, parseXilinxFpgaSettings(settings, context.workDir)),
  'intel-qat': (context, settings) => {
    new DriverSettings(settings, 'intel-qat').done();
    return intelQatDriver(context);
  },
  'sriov-nic': (context, settings) => sriovNicDriver(context, parseSriovNicSettings(settings)),
  'generic-pci': (context, settings) => genericPciDriver(context, parseGenericPciSettings(settings)),
  simulated: (context, settings) => simulatedDriver(context, parseSimulatedSettings(settings, context.hostname)),
};

/**
 * The enabled drivers, in the configured order, sharing one sysfs view (so
 * one discovery pass reads the bus once). Each driver's settings are
 * checked here: a bad one throws ConfigError naming AGENT_DRIVER_CONFIG and
 * the member, which stops the agent at start-up.
 */
export function createDrivers(config: DriversConfig, deps: DriverDeps): AcceleratorDriver[] {
  const sysfs = new SysfsReader({ root: deps.sysfsRoot, logger: deps.logger, write: deps.sysfsWrite });
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return config.drivers.map((name) =>
    FACTORIES[name](
      {
        sysfs,
        logger: deps.logger,
        runCommand: deps.runCommand,
        fetch: deps.fetch,
        sleep,
        hostname: config.hostname,
        workDir: join(config.stateDir, 'drivers', name),
        playbooks: { install: join(config.playbookDir, name, 'install.yml'), uninstall: join(config.playbookDir, name, 'uninstall.yml') },
      },
      config.driverSettings?.[name],
    ),
  );
}
