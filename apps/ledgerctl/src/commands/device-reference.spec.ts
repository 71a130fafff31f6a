import { CliError } from '../support/cli-error';
import { LedgerApiError } from '../support/ledger-api-client';
import { parseDeviceReference, resolveDevice } from './device-reference';

const DEVICE = '0193a1b2-0000-7000-8000-0000000000aa';
const DEPLOYABLE = '0193a1b2-0000-7000-8000-0000000000bb';

const usageError = (text: string): CliError => {
  try {
    parseDeviceReference(text);
  } catch (error) {
    expect(error).toMatchObject({ exitCode: 2 });
    return error as CliError;
  }
  throw new Error(`expected "${text}" to be refused`);
};

/** A client serving a fixed inventory of host compute-1: one FPGA at 0000:3b:00.0 with a VF at 0000:3b:00.1. */
function inventory() {
  const paths: string[] = [];
  const answers: Record<string, unknown> = {
    [`/api/v1/devices/${DEVICE}`]: { uuid: DEVICE, hostname: 'compute-1', pciAddress: '0000:3b:00.0' },
    '/api/v1/hosts/compute-1': { hostname: 'compute-1' },
    '/api/v1/devices?hostname=compute-1&limit=1000': { items: [{ uuid: DEVICE, hostname: 'compute-1', pciAddress: '0000:3b:00.0' }], nextCursor: null },
    '/api/v1/deployables?hostname=compute-1&limit=1000': { items: [{ uuid: DEPLOYABLE }], nextCursor: null },
    [`/api/v1/deployables/${DEPLOYABLE}`]: {
      attachHandles: [
        { kind: 'VF', address: '0000:3b:00.1', deviceUuid: DEVICE },
        { kind: 'MDEV', address: '0000:3b:00.2', deviceUuid: DEVICE },
      ],
    },
  };
  const client = {
    request: async <T>(_method: string, path: string) => {
      paths.push(path);
      if (path in answers) return answers[path] as T;
      throw new LedgerApiError(404, 'INVENTORY.HOST_NOT_FOUND', `not here: ${path}`);
    },
  };
  return { client, paths };
}

describe('device references', () => {
  it('reads a uuid, or a PCI address at a host (lspci’s short form meaning domain 0000)', () => {
    expect(parseDeviceReference(DEVICE.toUpperCase())).toEqual({ uuid: DEVICE });
    expect(parseDeviceReference('0000:3B:00.1@compute-1')).toEqual({ pciAddress: '0000:3b:00.1', hostname: 'compute-1' });
    expect(parseDeviceReference('3b:00.0@compute-1')).toEqual({ pciAddress: '0000:3b:00.0', hostname: 'compute-1' });
    expect(parseDeviceReference('10000:3b:00.0@h')).toEqual({ pciAddress: '10000:3b:00.0', hostname: 'h' });
  });

  it('refuses anything else as a usage error', () => {
    expect(usageError('fpga-1').message).toContain('neither a device uuid nor PCI-ADDRESS@HOST');
    expect(usageError('0000:3b:00.8@compute-1').message).toContain('is not a PCI address');
    usageError('0000:3b:00.0@');
    usageError('@compute-1');
    usageError('');
  });

  it('resolves a uuid to its host and address with one read', async () => {
    const { client, paths } = inventory();
    await expect(resolveDevice(client, { uuid: DEVICE })).resolves.toEqual({ deviceUuid: DEVICE, hostname: 'compute-1', pciAddress: '0000:3b:00.0' });
    expect(paths).toEqual([`/api/v1/devices/${DEVICE}`]);
  });

  it("resolves a device's address, and a VF's to its device, but never an MDEV", async () => {
    const { client } = inventory();
    await expect(resolveDevice(client, { pciAddress: '0000:3b:00.0', hostname: 'compute-1' })).resolves.toEqual({
      deviceUuid: DEVICE,
      hostname: 'compute-1',
      pciAddress: '0000:3b:00.0',
    });
    await expect(resolveDevice(client, { pciAddress: '0000:3b:00.1', hostname: 'compute-1' })).resolves.toEqual({
      deviceUuid: DEVICE,
      hostname: 'compute-1',
      pciAddress: '0000:3b:00.1',
    });
    await expect(resolveDevice(client, { pciAddress: '0000:3b:00.2', hostname: 'compute-1' })).rejects.toMatchObject({
      exitCode: 1,
      message: 'INVENTORY.DEVICE_NOT_FOUND: host compute-1 reports no device or VF at 0000:3b:00.2',
    });
  });

  it("passes on the ledger's refusal of an unknown host before looking for devices", async () => {
    const { client, paths } = inventory();
    await expect(resolveDevice(client, { pciAddress: '0000:3b:00.0', hostname: 'nowhere' })).rejects.toMatchObject({ code: 'INVENTORY.HOST_NOT_FOUND' });
    expect(paths).toEqual(['/api/v1/hosts/nowhere']);
  });
});
