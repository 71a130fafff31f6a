import type { SysfsReader } from '../../discovery/sysfs-reader';
import { failureOf, fixtureDriverContext, type FixtureDriverContext } from '../testing/driver-test-context';
import { configureSriovVfs } from './sriov-vfs';
import { bindToVfio } from './vfio-binding';

describe('vfio-pci binding and VF counts when the kernel does not play along (sriov-nic fixture)', () => {
  let host: FixtureDriverContext;
  let sysfs: SysfsReader;
  afterEach(() => host.cleanup());

  it('puts the host driver back when vfio-pci does not take the function', async () => {
    host = await fixtureDriverContext('sriov-nic', { failingDrivers: ['vfio-pci'] });
    sysfs = host.context.sysfs;
    const vf = (await sysfs.readFunction('0000:af:02.0'))!;

    const failure = await failureOf(bindToVfio(sysfs, vf));

    expect(failure).toMatchObject({
      code: 'DRIVER.VERIFY_FAILED',
      message: 'vfio-pci did not take 0000:af:02.0 (bound: none)',
      deviceState: 'bound to iavf (previous driver restored)',
      evidence: { driver: 'iavf', previousDriver: 'iavf' },
    });
    expect((await sysfs.readFunction('0000:af:02.0'))?.driver).toBe('iavf');
  });

  it('restores the previous VF count when the kernel refuses the new one', async () => {
    host = await fixtureDriverContext('sriov-nic');
    const kernel = host.context.sysfs;
    let refused = false;
    // A kernel that takes the 0 but refuses the new count once, as a PF out of MSI-X vectors would.
    sysfs = Object.create(kernel, {
      write: {
        value: async (path: string, value: string) => {
          if (path.endsWith('sriov_numvfs') && value === '8' && !refused) {
            refused = true;
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          }
          return kernel.write(path, value);
        },
      },
    });
    const pf = (await sysfs.readFunction('0000:af:00.0'))!;

    const failure = await failureOf(configureSriovVfs(sysfs, pf, 8));

    expect(failure).toMatchObject({
      code: 'DRIVER.SYSFS_WRITE_FAILED',
      deviceState: '2 VF(s) (previous count restored)',
      evidence: { numVfs: 2, previousNumVfs: 2 },
    });
    expect((await sysfs.readFunction('0000:af:00.0'))?.virtualFunctions).toEqual(['0000:af:02.0', '0000:af:02.1']);
  });
});
