import type { DriverContext } from '../drivers/driver-context';
import { simulatedDriver } from '../drivers/simulated/simulated.driver';
import { parseSimulatedSettings } from '../drivers/simulated/simulated.settings';
import { DeviceChurn, pickDistinct } from './device-churn';

function host(settings: Record<string, unknown>) {
  const context = { hostname: 'sim-00001', sleep: async () => undefined, playbooks: { install: '/i.yml', uninstall: '/u.yml' } } as unknown as DriverContext;
  const driver = simulatedDriver(context, parseSimulatedSettings(settings, 'sim-00001'));
  const addressOf = (key: string) => driver.devices().find((device) => device.key === key)!.pciAddress;
  const reported = async (key: string) => (await driver.discover()).find((device) => device.pciAddress === addressOf(key))!;
  return { driver, churn: new DeviceChurn(driver), addressOf, reported };
}

describe('DeviceChurn', () => {
  it("raises an FPGA's VF count by two, then puts it back, and says what the inventory will show", async () => {
    const { churn, addressOf, reported } = host({ fpgas: 1, fpgaVfs: 4, gpus: 0, nics: 0 });

    await expect(churn.change(addressOf('fpga0'))).resolves.toEqual({ kind: 'vfs', description: 'numVfs 4 → 6', expected: { driver: 'dfl-pci', deployableCount: 6 } });
    expect((await reported('fpga0')).deployables[0].attachHandles).toHaveLength(6);

    await expect(churn.change(addressOf('fpga0'))).resolves.toEqual({ kind: 'vfs', description: 'numVfs 6 → 4', expected: { driver: 'dfl-pci', deployableCount: 4 } });
    expect((await reported('fpga0')).deployables[0].attachHandles).toHaveLength(4);
  });

  it('gives a NIC without VFs two, so its count changes too (a PF alone counts as one)', async () => {
    const { churn, addressOf } = host({ fpgas: 0, gpus: 0, nics: 1, nicVfs: 0 });

    await expect(churn.change(addressOf('nic0'))).resolves.toEqual({ kind: 'vfs', description: 'numVfs 0 → 2', expected: { driver: 'i40e', deployableCount: 2 } });
  });

  it('takes VFs away from a PF that has the most it can', async () => {
    const { churn, addressOf } = host({ fpgas: 0, gpus: 0, nics: 1, nicVfs: 64 });

    await expect(churn.change(addressOf('nic0'))).resolves.toMatchObject({ description: 'numVfs 64 → 62' });
  });

  it('hands a GPU to an instance and back', async () => {
    const { churn, addressOf, reported } = host({ fpgas: 0, gpus: 1, nics: 0 });

    await expect(churn.change(addressOf('gpu0'))).resolves.toEqual({ kind: 'driver', description: 'driver nvidia → vfio-pci', expected: { driver: 'vfio-pci', deployableCount: 1 } });
    expect((await reported('gpu0')).driver).toBe('vfio-pci');
    await expect(churn.change(addressOf('gpu0'))).resolves.toMatchObject({ description: 'driver vfio-pci → nvidia', expected: { driver: 'nvidia' } });
  });

  it('leaves a vGPU-only GPU alone: nothing it could change shows in a report', async () => {
    const { churn, addressOf, driver } = host({ fpgas: 0, gpus: 1, nics: 0, vgpuType: 'nvidia-700' });
    const before = await driver.discover();

    await expect(churn.change(addressOf('gpu0'))).resolves.toBeUndefined();
    expect(await driver.discover()).toEqual(before);
  });

  it('passes an injected driver failure on, with the device as it was', async () => {
    const { churn, addressOf, reported } = host({ fpgas: 1, fpgaVfs: 4, gpus: 0, nics: 0, failNext: { configureVfs: 1 } });

    await expect(churn.change(addressOf('fpga0'))).rejects.toThrow('simulated configure-vfs failure');
    expect((await reported('fpga0')).deployables[0].count).toBe(4);
  });
});

describe('pickDistinct', () => {
  const sequence = (values: number[]) => () => values.shift() ?? 0;

  it('draws distinct indices within range', () => {
    const picked = pickDistinct(100, 30, Math.random);
    expect(new Set(picked).size).toBe(30);
    expect(picked.every((index) => Number.isInteger(index) && index >= 0 && index < 100)).toBe(true);
  });

  it('takes every index when asked for more than there are', () => {
    expect(pickDistinct(5, 9, Math.random).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('replaces a repeated draw by the newest index (Floyd), so it never loops', () => {
    expect(pickDistinct(10, 3, sequence([0, 0, 0]))).toEqual([0, 8, 9]);
  });

  it('draws nothing for a count of zero', () => {
    expect(pickDistinct(10, 0, Math.random)).toEqual([]);
  });
});
