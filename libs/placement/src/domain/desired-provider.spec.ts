import { desiredHostPlacement, desiredProviderOf, type ProviderFacts, reservationReasonsOf } from './desired-provider';

const gpu: ProviderFacts = {
  deployableUuid: '6c1d3f8e-0000-5000-8000-000000000001',
  deviceUuid: '6c1d3f8e-0000-5000-8000-000000000002',
  name: 'compute-1_0000:3b:00.0',
  rpUuid: '4dc17aab-79d3-3f4f-b61f-3cc3f3cb0ef8',
  resourceClass: 'PGPU',
  count: 1,
  reportedTraits: ['CUSTOM_NVIDIA_20B5'],
  driverName: 'nvidia-gpu',
  deviceDisabled: false,
  deviceHealth: 'none',
  agentLost: false,
  hostOutOfService: false,
  hostFenced: false,
  programInFlight: false,
  programmedFunctionId: null,
};

const fpga: ProviderFacts = {
  ...gpu,
  name: 'compute-1_0000:5e:00.0',
  resourceClass: 'FPGA',
  count: 4,
  reportedTraits: ['CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', 'CUSTOM_FPGA_FUNCTION_ID_INTEL_0123', 'OWNER_CYBORG'],
  driverName: 'intel-fpga',
};

describe('desiredProviderOf', () => {
  it('is the deployable as Cyborg makes its provider: its name and uuid, total = max_unit = count, nothing reserved, OWNER_CYBORG added', () => {
    expect(desiredProviderOf(gpu)).toEqual({
      uuid: '4dc17aab-79d3-3f4f-b61f-3cc3f3cb0ef8',
      name: 'compute-1_0000:3b:00.0',
      deviceUuid: gpu.deviceUuid,
      deployableUuid: gpu.deployableUuid,
      resourceClass: 'PGPU',
      total: 1,
      reserved: 0,
      maxUnit: 1,
      traits: ['CUSTOM_NVIDIA_20B5', 'OWNER_CYBORG'],
      reservedBecause: [],
    });
  });

  it.each([
    [{ deviceDisabled: true }, ['disabled']],
    [{ deviceHealth: 'reserve' }, ['unhealthy']],
    [{ deviceHealth: 'drain' }, ['unhealthy']],
    [{ agentLost: true }, ['agent-lost']],
    [{ hostOutOfService: true }, ['out-of-service']],
    [{ hostFenced: true }, ['fenced']],
    [{ programInFlight: true }, ['reprogramming']],
    [
      { deviceDisabled: true, deviceHealth: 'drain', agentLost: true, hostOutOfService: true, hostFenced: true, programInFlight: true },
      ['disabled', 'unhealthy', 'agent-lost', 'out-of-service', 'fenced', 'reprogramming'],
    ],
  ] as const)('reserves the whole inventory while %j, and says why', (facts, reasons) => {
    const provider = desiredProviderOf({ ...fpga, ...facts });
    expect([provider.reserved, provider.total, provider.maxUnit, provider.reservedBecause]).toEqual([4, 4, 4, reasons]);
  });

  it('reserves one unit per handle being cleaned or whose clean failed, and the whole inventory with any other reason', () => {
    const cleaning = desiredProviderOf({ ...fpga, dirtyHandles: { a: 'cleaning', b: 'pending' } });
    expect([cleaning.reserved, cleaning.reservedBecause]).toEqual([2, ['cleaning']]);
    const failed = desiredProviderOf({ ...gpu, dirtyHandles: { a: 'clean-failed' } });
    expect([failed.reserved, failed.reservedBecause]).toEqual([1, ['clean-failed']]);
    const fenced = desiredProviderOf({ ...fpga, hostFenced: true, dirtyHandles: { a: 'pending' } });
    expect([fenced.reserved, fenced.reservedBecause]).toEqual([4, ['fenced', 'cleaning']]);
    expect(desiredProviderOf({ ...fpga, dirtyHandles: {} }).reserved).toBe(0);
  });

  it('keeps a degraded device schedulable: it works, with errors', () => {
    expect(reservationReasonsOf({ ...fpga, deviceHealth: 'watch' })).toEqual([]);
    expect(desiredProviderOf({ ...fpga, deviceHealth: 'watch' }).reserved).toBe(0);
  });

  it('swaps the reported function trait for the one a program job read back', () => {
    const programmed = desiredProviderOf({ ...fpga, programmedFunctionId: '9a8b7c6d5e4f30211203948576abcdef' });
    expect(programmed.traits).toEqual([
      'CUSTOM_FPGA_FUNCTION_ID_INTEL_9A8B7C6D5E4F30211203948576ABCDEF',
      'CUSTOM_FPGA_INTEL',
      'CUSTOM_FPGA_INTEL_PAC_ARRIA10',
      'OWNER_CYBORG',
    ]);
  });

  it('names the vendor after the driver when the report carries no CUSTOM_FPGA_<VENDOR> trait, and adds no function trait when nothing names one', () => {
    const xilinx = { ...fpga, reportedTraits: ['CUSTOM_FPGA_PRODUCT_ID_5020'], driverName: 'xilinx-fpga', programmedFunctionId: 'abc-def' };
    expect(desiredProviderOf(xilinx).traits).toEqual(['CUSTOM_FPGA_FUNCTION_ID_XILINX_ABC_DEF', 'CUSTOM_FPGA_PRODUCT_ID_5020', 'OWNER_CYBORG']);
    expect(desiredProviderOf({ ...xilinx, driverName: null }).traits).toEqual(['CUSTOM_FPGA_PRODUCT_ID_5020', 'OWNER_CYBORG']);
  });
});

describe('desiredHostPlacement', () => {
  it('sorts the providers by name and keeps the position; no deployables is an empty list', () => {
    const placement = desiredHostPlacement('compute-1', [fpga, gpu], 42);
    expect([placement.hostname, placement.position, placement.providers.map((provider) => provider.name)]).toEqual([
      'compute-1',
      42,
      ['compute-1_0000:3b:00.0', 'compute-1_0000:5e:00.0'],
    ]);
    expect(desiredHostPlacement('compute-3', [], 7)).toEqual({ hostname: 'compute-3', providers: [], position: 7 });
  });
});
