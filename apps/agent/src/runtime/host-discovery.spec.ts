import { HostDiscovery, MAX_TELEMETRY_PER_DEVICE } from './host-discovery';
import { collectingLogger, FakeDriver, fakeFpga } from './testing/fake-driver';

describe('HostDiscovery', () => {
  it('merges every driver into one normalised picture and knows which driver owns each address', async () => {
    const fpga = new FakeDriver('intel-fpga', [fakeFpga('0000:5E:00.0')]);
    const other = new FakeDriver('simulated', [fakeFpga('0000:3b:00.0', 1)]);
    const discovery = new HostDiscovery('compute-1', [fpga, other], collectingLogger());
    const picture = await discovery.discover();
    expect(picture.devices.map((device) => device.pciAddress)).toEqual(['0000:3b:00.0', '0000:5e:00.0']);
    expect(picture.fingerprint).toMatch(/\S{20,}/);
    expect(discovery.ownerOf('0000:5e:00.0')).toBe(fpga);
    expect(discovery.ownerOf('0000:5E:00.2')).toBe(fpga);
    expect(discovery.ownerOf('0000:3b:00.1')).toBe(other);
    expect(discovery.ownerOf('0000:99:00.0')).toBeUndefined();
  });

  it('fingerprints equal pictures equally whatever the order, and a change differently', async () => {
    const driver = new FakeDriver('simulated', [fakeFpga('0000:5e:00.0'), fakeFpga('0000:3b:00.0')]);
    const discovery = new HostDiscovery('compute-1', [driver], collectingLogger());
    const first = await discovery.discover();
    driver.devices = [fakeFpga('0000:3b:00.0'), fakeFpga('0000:5e:00.0')];
    const again = await discovery.discover();
    expect(again.fingerprint).toBe(first.fingerprint);
    // The report's body is these devices as JSON: the same bytes let the ledger recognise it unchanged (docs/agent-protocol.md).
    expect(JSON.stringify(again.devices)).toBe(JSON.stringify(first.devices));
    driver.devices = [fakeFpga('0000:3b:00.0'), fakeFpga('0000:5e:00.0', 4)];
    expect((await discovery.discover()).fingerprint).not.toBe(first.fingerprint);
  });

  it('keeps the first listed driver when two claim one address, with a warning', async () => {
    const logger = collectingLogger();
    const first = new FakeDriver('nvidia-gpu', [fakeFpga('0000:5e:00.0')]);
    const second = new FakeDriver('generic-pci', [fakeFpga('0000:5e:00.0', 1)]);
    const discovery = new HostDiscovery('compute-1', [first, second], logger);
    const picture = await discovery.discover();
    expect(picture.devices).toHaveLength(1);
    expect(picture.devices[0].deployables[0].count).toBe(2);
    expect(logger.lines).toContainEqual(expect.stringMatching(/generic-pci and nvidia-gpu both report 0000:5e:00.0/));
  });

  it('leaves out a device the ledger would refuse, and reports the rest', async () => {
    const logger = collectingLogger();
    const odd = { ...fakeFpga('0000:3b:00.0'), vendorId: 'not-hex' };
    const discovery = new HostDiscovery('compute-1', [new FakeDriver('simulated', [odd, fakeFpga('0000:5e:00.0')])], logger);
    const picture = await discovery.discover();
    expect(picture.devices.map((device) => device.pciAddress)).toEqual(['0000:5e:00.0']);
    expect(logger.lines).toContainEqual(expect.stringMatching(/^warn discovery: simulated reported a device the ledger would refuse/));
  });

  it("keeps a failing driver's last good devices rather than reporting them gone", async () => {
    const logger = collectingLogger();
    const driver = new FakeDriver('simulated', [fakeFpga('0000:5e:00.0')]);
    const discovery = new HostDiscovery('compute-1', [driver], logger);
    const before = await discovery.discover();
    driver.failDiscovery = new Error('sysfs went away');
    expect(await discovery.discover()).toEqual(before);
    expect(logger.lines).toContainEqual(expect.stringMatching(/simulated failed \(sysfs went away\); keeping its last 1 device/));
  });

  it('merges health samples, dropping non-numbers and telemetry beyond the limit, and skips a driver whose check throws', async () => {
    const healthy = new FakeDriver('simulated');
    const telemetry = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`m${i}`, i]));
    healthy.samples = [{ pciAddress: '0000:5E:00.0', health: 'degraded', reason: 'Xid 79', telemetry: { ...telemetry, bad: Number.NaN } }];
    const broken = new FakeDriver('nvidia-gpu');
    broken.health = () => Promise.reject(new Error('nvidia-smi hung'));
    const logger = collectingLogger();
    const devices = await new HostDiscovery('compute-1', [healthy, broken], logger).health();
    expect(devices).toEqual([{ pciAddress: '0000:5e:00.0', health: 'degraded', healthReason: 'Xid 79', telemetry: expect.any(Object) }]);
    expect(Object.keys(devices[0].telemetry)).toHaveLength(MAX_TELEMETRY_PER_DEVICE);
    expect(logger.lines).toContainEqual(expect.stringMatching(/health: nvidia-gpu failed \(nvidia-smi hung\)/));
  });
});
