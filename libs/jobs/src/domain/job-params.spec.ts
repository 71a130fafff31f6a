import { type JobKind } from './job-kinds';
import { validateJobParams } from './job-params';

const DEVICE = '17107E20-ED18-50AD-92A6-E82078F0E0F2';
const OTHER = '9e1b8a2c-4d3e-4f5a-8b6c-7d8e9f0a1b2c';
const SHA = 'AB'.repeat(32);

const expectInvalid = (kind: JobKind, params: unknown, path: string) =>
  expect(() => validateJobParams(kind, params)).toThrow(expect.objectContaining({ code: 'JOB.INVALID', status: 400, facts: expect.objectContaining({ path }) }));

describe('validateJobParams', () => {
  it('normalises every kind of the protocol table', () => {
    const device = { deviceUuid: DEVICE, pciAddress: '0000:5E:00.1' };
    const normal = { deviceUuid: DEVICE.toLowerCase(), pciAddress: '0000:5e:00.1' };
    expect(validateJobParams('program', { ...device, deployableUuid: OTHER, region: 'pr-0', image: { url: 'https://images.example/b.gbs', sha256: SHA } })).toEqual({
      ...normal,
      deployableUuid: OTHER,
      region: 'pr-0',
      image: { url: 'https://images.example/b.gbs', sha256: SHA.toLowerCase() },
    });
    expect(validateJobParams('program', { ...device, deployableUuid: OTHER, image: { imageUuid: OTHER.toUpperCase() } })).toEqual({
      ...normal,
      deployableUuid: OTHER,
      image: { imageUuid: OTHER },
    });
    expect(validateJobParams('program', { ...device, deployableUuid: OTHER, image: { imageUuid: OTHER }, bitstreamId: DEVICE })).toMatchObject({
      bitstreamId: DEVICE.toLowerCase(),
    });
    expect(validateJobParams('configure-vfs', { ...device, numVfs: 0 })).toEqual({ ...normal, numVfs: 0 });
    expect(validateJobParams('configure-vfs', { ...device, numVfs: 256 })).toEqual({ ...normal, numVfs: 256 });
    expect(validateJobParams('create-mdev', { ...device, mdevType: 'nvidia-35', mdevUuid: OTHER })).toEqual({ ...normal, mdevType: 'nvidia-35', mdevUuid: OTHER });
    expect(validateJobParams('remove-mdev', { ...device, mdevUuid: OTHER })).toEqual({ ...normal, mdevUuid: OTHER });
    expect(validateJobParams('carve', { ...device, profile: '1g.10gb+me', profileId: 20, start: 3, bindId: OTHER })).toEqual({
      ...normal,
      profile: '1g.10gb+me',
      profileId: 20,
      start: 3,
      bindId: OTHER,
    });
    expect(validateJobParams('destroy', { ...device, handle: 'MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f', reason: 'reclaimed' })).toEqual({
      ...normal,
      handle: 'MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f',
      reason: 'reclaimed',
    });
    for (const kind of ['attach', 'detach'] as const) {
      expect(validateJobParams(kind, { ...device, instanceUuid: OTHER })).toEqual({ ...normal, instanceUuid: OTHER });
    }
    for (const kind of ['install-driver', 'uninstall-driver', 'update-driver'] as const) {
      expect(validateJobParams(kind, { driver: 'nvidia-gpu', version: '550.54.15' })).toEqual({ driver: 'nvidia-gpu', version: '550.54.15' });
      expect(validateJobParams(kind, { driver: 'intel-qat' })).toEqual({ driver: 'intel-qat' });
    }
    expect(validateJobParams('discover', {})).toEqual({});
    expect(validateJobParams('probe', device)).toEqual(normal);
    expect(validateJobParams('probe', { ...device, instanceUuid: OTHER.toUpperCase() })).toEqual({ ...normal, instanceUuid: OTHER });
  });

  it('takes a shell program naming the device only, and a region program with or without target: region', () => {
    const image = { url: 'https://images.example/shell.bin', sha256: SHA };
    const shell = { deviceUuid: DEVICE, pciAddress: '0000:5e:00.0', target: 'shell', image, bitstreamId: OTHER };
    expect(validateJobParams('program', shell)).toEqual({ ...shell, deviceUuid: DEVICE.toLowerCase(), image: { ...image, sha256: SHA.toLowerCase() } });
    expectInvalid('program', { ...shell, deployableUuid: OTHER }, 'params.deployableUuid');
    expectInvalid('program', { ...shell, region: 'pr-0' }, 'params.region');
    const region = { deviceUuid: DEVICE, deployableUuid: OTHER, pciAddress: '0000:5e:00.0', image };
    expect(validateJobParams('program', { ...region, target: 'region' })).toEqual(validateJobParams('program', region));
    expectInvalid('program', { ...region, target: 'flash' }, 'params.target');
    expectInvalid('program', { deviceUuid: DEVICE, pciAddress: '0000:5e:00.0', target: 'region', image }, 'params.deployableUuid');
    expectInvalid('probe', { deviceUuid: DEVICE, pciAddress: '0000:5e:00.0', instanceUuid: 'vm-1' }, 'params.instanceUuid');
  });

  it('names the offending member', () => {
    const base = { deviceUuid: DEVICE, pciAddress: '0000:5e:00.0' };
    expectInvalid('discover', null, 'params');
    expectInvalid('discover', [], 'params');
    expectInvalid('discover', { deep: true }, 'params.deep');
    expectInvalid('configure-vfs', { ...base, numVfs: -1 }, 'params.numVfs');
    expectInvalid('configure-vfs', { ...base, numVfs: 257 }, 'params.numVfs');
    expectInvalid('configure-vfs', { ...base, numVfs: 2.5 }, 'params.numVfs');
    expectInvalid('configure-vfs', { ...base, numvfs: 2 }, 'params.numvfs');
    for (const pciAddress of ['5e:00.0', '0000:5e:00.8', '0000:5e:20.0', 'zzzz:5e:00.0', 42]) {
      expectInvalid('configure-vfs', { ...base, pciAddress, numVfs: 1 }, 'params.pciAddress');
    }
    expectInvalid('attach', { ...base, instanceUuid: 'vm-1' }, 'params.instanceUuid');
    expectInvalid('attach', { pciAddress: '0000:5e:00.0', instanceUuid: OTHER }, 'params.deviceUuid');
    expectInvalid('create-mdev', { ...base, mdevUuid: OTHER, mdevType: 'nvidia 35' }, 'params.mdevType');
    expectInvalid('carve', { ...base, profile: '1g 10gb', start: 0 }, 'params.profile');
    expectInvalid('carve', { ...base, profile: '1g.10gb', start: -1 }, 'params.start');
    expectInvalid('destroy', { ...base, handle: 'MIG-a', reason: 'bored' }, 'params.reason');
    expectInvalid('destroy', { ...base, handle: '', reason: 'reclaimed' }, 'params.handle');
    for (const driver of ['NVIDIA', '-gpu', 'a'.repeat(64), 'gpu_1', '']) expectInvalid('install-driver', { driver }, 'params.driver');
    for (const version of ['', 'v'.repeat(65), '1.0\n', ' 1.0', 5]) expectInvalid('update-driver', { driver: 'gpu', version }, 'params.version');
  });

  it('takes an image by url and checksum, or by image uuid, never both or neither', () => {
    const program = (image: unknown) => ({ deviceUuid: DEVICE, deployableUuid: OTHER, pciAddress: '0000:5e:00.0', image });
    expectInvalid('program', program(undefined), 'params.image');
    expectInvalid('program', { ...program({ imageUuid: OTHER }), bitstreamId: 'nlb0' }, 'params.bitstreamId');
    expectInvalid('program', program({ imageUuid: OTHER, url: 'https://x/y' }), 'params.image');
    expectInvalid('program', program({ imageUuid: 'bitstream.gbs' }), 'params.image.imageUuid');
    expectInvalid('program', program({ url: 'ftp://images.example/b.gbs', sha256: SHA }), 'params.image.url');
    expectInvalid('program', program({ url: 'not a url', sha256: SHA }), 'params.image.url');
    expectInvalid('program', program({ url: `https://x/${'a'.repeat(2048)}`, sha256: SHA }), 'params.image.url');
    expectInvalid('program', program({ url: 'https://x/b.gbs', sha256: 'ab' }), 'params.image.sha256');
    expectInvalid('program', program({ url: 'https://x/b.gbs', sha256: SHA, size: 1 }), 'params.image.size');
    expectInvalid('program', { ...program({ imageUuid: OTHER }), region: 'pr\n0' }, 'params.region');
    expectInvalid('program', { ...program({ imageUuid: OTHER }), region: 'r'.repeat(201) }, 'params.region');
  });

  it("takes a registered bitstream's content on the ledger by path (the agent fetches it there), and no other path", () => {
    const program = (url: string) => ({ deviceUuid: DEVICE, deployableUuid: OTHER, pciAddress: '0000:5e:00.0', image: { url, sha256: SHA } });
    const content = `/api/v1/bitstreams/${OTHER}/content`;
    expect(validateJobParams('program', program(content))).toMatchObject({ image: { url: content, sha256: SHA.toLowerCase() } });
    expectInvalid('program', program('/api/v1/hosts/h1/report'), 'params.image.url');
    expectInvalid('program', program(`/api/v1/bitstreams/${OTHER}/content/../../x`), 'params.image.url');
  });
});
