import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '@ledger/config';
import { DRIVER_NAMES } from '../config/driver-names';
import { copyFixture, recordingLogger, type FixtureCopy } from '../discovery/testing/sysfs-fixtures';
import { createDrivers, type DriversConfig } from './create-drivers';
import type { DriverDeps } from './driver-context';
import { runCommand } from './run-command';

const PLAYBOOKS = resolve(__dirname, '..', '..', 'playbooks');

describe('createDrivers', () => {
  let brokenHost: FixtureCopy;
  beforeAll(async () => {
    brokenHost = await copyFixture('broken');
  });
  afterAll(() => brokenHost.remove());
  const deps = (sysfsRoot: string, logger = recordingLogger()): DriverDeps => ({ sysfsRoot, logger, runCommand, fetch });
  const config = (drivers: DriversConfig['drivers'], driverSettings: Record<string, unknown> = {}): DriversConfig => ({
    drivers,
    driverSettings,
    hostname: 'compute-1',
    stateDir: '/var/lib/ledger-agent',
    playbookDir: PLAYBOOKS,
  });

  it('makes the enabled drivers in the configured order, each with its shipped playbooks', () => {
    const drivers = createDrivers(config(['simulated', 'nvidia-gpu', 'generic-pci']), deps(brokenHost.root));

    expect(drivers.map((driver) => driver.name)).toEqual(['simulated', 'nvidia-gpu', 'generic-pci']);
    expect(drivers[1].playbooks).toEqual({ install: join(PLAYBOOKS, 'nvidia-gpu', 'install.yml'), uninstall: join(PLAYBOOKS, 'nvidia-gpu', 'uninstall.yml') });
  });

  it('ships install and uninstall playbooks for every driver', () => {
    for (const driver of createDrivers(config([...DRIVER_NAMES]), deps(brokenHost.root))) {
      expect([driver.name, existsSync(driver.playbooks.install), existsSync(driver.playbooks.uninstall)]).toEqual([driver.name, true, true]);
    }
  });

  it('stops start-up on a bad setting, naming the driver and member', () => {
    const make = (settings: Record<string, unknown>) => () => createDrivers(config(['sriov-nic', 'intel-qat'], settings), deps(brokenHost.root));
    expect(make({ 'sriov-nic': { physicalNetworks: 'physnet1' } })).toThrow(ConfigError);
    expect(make({ 'sriov-nic': { physicalNetworks: 'physnet1' } })).toThrow('AGENT_DRIVER_CONFIG: sriov-nic.physicalNetworks must be an object of non-empty strings');
    expect(make({ 'intel-qat': { anything: 1 } })).toThrow('AGENT_DRIVER_CONFIG: intel-qat.anything is not a setting of intel-qat (known: none)');
  });

  it('never lets an odd sysfs tree crash any driver\'s discovery or health check', async () => {
    const logger = recordingLogger();
    const drivers = createDrivers(
      config([...DRIVER_NAMES].filter((name) => name !== 'simulated'), { 'generic-pci': { allow: ['10de:*', '8086:*'] }, 'nvidia-gpu': { nvidiaSmiPath: '/nonexistent/nvidia-smi' } }),
      deps(brokenHost.root, logger),
    );

    const reports = await Promise.all(drivers.map(async (driver) => [driver.name, (await driver.discover()).map((device) => device.pciAddress)]));
    await Promise.all(drivers.map((driver) => driver.health()));

    expect(reports).toEqual([
      ['nvidia-gpu', ['0000:04:00.0']],
      ['intel-fpga', []],
      ['xilinx-fpga', []],
      ['intel-qat', []],
      ['sriov-nic', []],
      ['generic-pci', ['0000:00:00.0', '0000:04:00.0']],
    ]);
    // One shared scan per pass: each odd entry is warned about once, not once per driver.
    expect(logger.warnings.filter((warning) => warning.includes('0000:01:00.0/vendor'))).toHaveLength(1);
  });
});
