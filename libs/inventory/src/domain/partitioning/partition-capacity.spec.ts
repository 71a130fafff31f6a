import { partitionProfileOf, providerCapacity } from './partition-capacity';

const parentName = 'gpu-host-1_0000:3b:00.0';
const capacity = { memoryGiB: 80 };

describe('providerCapacity', () => {
  it('charges a MIG partition, carved or to carve, its profile\'s memory', () => {
    expect(providerCapacity({ parentName, name: `${parentName}_1g.10gb_3`, resourceClass: 'CUSTOM_MIG_1G_10GB', capacity })).toEqual({ memoryGiB: 10 });
    expect(providerCapacity({ parentName, name: `${parentName}_1g.10gb_carvable`, resourceClass: 'CUSTOM_MIG_1G_10GB', capacity })).toEqual({ memoryGiB: 10 });
    expect(providerCapacity({ parentName, name: `${parentName}_3g.40gb_4`, resourceClass: 'CUSTOM_MIG_3G_40GB', capacity })).toEqual({ memoryGiB: 40 });
    expect(providerCapacity({ parentName, name: `${parentName}_1g.10gb+me_0`, resourceClass: 'CUSTOM_MIG_1G_10GB_ME', capacity })).toEqual({ memoryGiB: 10 });
    expect(providerCapacity({ parentName, name: `${parentName}_1g.18gb_carvable`, resourceClass: 'CUSTOM_MIG_1G_18GB', capacity: { memoryGiB: 141 } })).toEqual({ memoryGiB: 18 });
  });

  it('charges any other provider its device\'s whole capacity: a whole GPU, a vGPU type, an FPGA region', () => {
    expect(providerCapacity({ parentName, name: parentName, resourceClass: 'PGPU', capacity })).toBe(capacity);
    expect(providerCapacity({ parentName, name: `${parentName}_nvidia-35_0`, resourceClass: 'VGPU', capacity })).toBe(capacity);
    expect(providerCapacity({ parentName, name: `${parentName}_region_0`, resourceClass: 'FPGA', capacity: {} })).toEqual({});
    // A name that reads as a partition's under another class is not one.
    expect(providerCapacity({ parentName, name: `${parentName}_1g.10gb_3`, resourceClass: 'PGPU', capacity })).toBe(capacity);
  });
});

describe('partitionProfileOf', () => {
  it('reads the profile of a partition\'s or a room\'s provider name, and nothing else', () => {
    expect(partitionProfileOf(parentName, `${parentName}_2g.20gb_4`)).toBe('2g.20gb');
    expect(partitionProfileOf(parentName, `${parentName}_2g.20gb_carvable`)).toBe('2g.20gb');
    expect(partitionProfileOf(parentName, parentName)).toBeUndefined();
    expect(partitionProfileOf(parentName, 'other-host_0000:3b:00.0_2g.20gb_4')).toBeUndefined();
  });
});
