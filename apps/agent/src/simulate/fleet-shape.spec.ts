import { hostShape, MAX_DEVICES_PER_HOST, simulatedHostname } from './fleet-shape';

describe('hostShape', () => {
  it('splits eight devices as a typical host: 2 FPGAs, 4 GPUs, 2 NICs', () => {
    expect(hostShape(8)).toEqual({ fpgas: 2, gpus: 4, nics: 2 });
  });

  it.each([0, 1, 3, 5, 17, 33, 39, MAX_DEVICES_PER_HOST])('gives exactly %i devices within the driver limits', (devices) => {
    const shape = hostShape(devices);
    expect(shape.fpgas + shape.gpus + shape.nics).toBe(devices);
    expect(shape.fpgas).toBeLessThanOrEqual(16);
    expect(shape.gpus).toBeLessThanOrEqual(16);
    expect(shape.nics).toBeLessThanOrEqual(8);
  });

  it.each([-1, 2.5, MAX_DEVICES_PER_HOST + 1])('refuses %p devices', (devices) => {
    expect(() => hostShape(devices)).toThrow(RangeError);
  });
});

describe('simulatedHostname', () => {
  it('numbers from one, padded so the names sort in order', () => {
    expect(simulatedHostname(0, 200)).toBe('sim-00001');
    expect(simulatedHostname(9999, 10_000)).toBe('sim-10000');
    expect(simulatedHostname(0, 1_000_000)).toBe('sim-0000001');
  });
});
