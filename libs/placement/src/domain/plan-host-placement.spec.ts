import type { ActualHostPlacement, ActualProvider } from './actual-placement';
import { type DesiredHostPlacement, type DesiredProvider, OWNER_TRAIT } from './desired-placement';
import { desiredInventories, planHostPlacement } from './plan-host-placement';

const CN = '11111111-1111-4111-8111-111111111111';

function desiredProvider(name: string, overrides: Partial<DesiredProvider> = {}): DesiredProvider {
  return {
    uuid: `uuid-${name}`,
    name,
    deviceUuid: `device-${name}`,
    deployableUuid: `deployable-${name}`,
    resourceClass: 'FPGA',
    total: 1,
    reserved: 0,
    maxUnit: 1,
    traits: ['CUSTOM_FPGA_INTEL', OWNER_TRAIT],
    reservedBecause: [],
    ...overrides,
  };
}

const desired = (...providers: DesiredProvider[]): DesiredHostPlacement => ({ hostname: 'host-a', providers, position: 7 });

/** What Placement holds after the ledger wrote `provider` there, at `generation`. */
function inPlacement(provider: DesiredProvider, generation = 2, overrides: Partial<ActualProvider> = {}): ActualProvider {
  return { uuid: provider.uuid, name: provider.name, generation, inventories: desiredInventories(provider), traits: provider.traits, ...overrides };
}

const actual = (...providers: ActualProvider[]): ActualHostPlacement => ({ computeNodeUuid: CN, providers });

describe('planHostPlacement', () => {
  it('given an empty tree, when a host has two devices, then each provider is created with its inventory and traits (three writes each)', () => {
    const gpu = desiredProvider('host-a_0000:81:00.0', { resourceClass: 'PGPU', traits: ['CUSTOM_NVIDIA_2236', OWNER_TRAIT] });
    const fpga = desiredProvider('host-a_0000:5e:00.0');
    const plan = planHostPlacement(desired(fpga, gpu), actual());
    expect(plan.steps.map((step) => [step.kind, step.uuid])).toEqual([
      ['create-provider', fpga.uuid],
      ['set-inventories', fpga.uuid],
      ['set-traits', fpga.uuid],
      ['create-provider', gpu.uuid],
      ['set-inventories', gpu.uuid],
      ['set-traits', gpu.uuid],
    ]);
    expect(plan.steps[0]).toMatchObject({ parentUuid: CN, name: fpga.name });
    expect(plan.steps[4]).toMatchObject({ inventories: { PGPU: { total: 1, reserved: 0, maxUnit: 1, minUnit: 1, stepSize: 1, allocationRatio: 1 } } });
    expect(plan.steps[5]).toMatchObject({ traits: ['CUSTOM_NVIDIA_2236', OWNER_TRAIT] });
    expect(plan.blocked).toEqual([]);
  });

  it('given a tree that matches, when planned, then nothing is written', () => {
    const fpga = desiredProvider('host-a_0000:5e:00.0');
    expect(planHostPlacement(desired(fpga), actual(inPlacement(fpga)))).toEqual({ steps: [], blocked: [] });
  });

  it('given a schedulable device, when it is disabled (reserved = total), then only its inventory is written', () => {
    const enabled = desiredProvider('host-a_0000:5e:00.0', { total: 4, maxUnit: 4 });
    const disabled = { ...enabled, reserved: 4, reservedBecause: ['disabled' as const] };
    const plan = planHostPlacement(desired(disabled), actual(inPlacement(enabled)));
    expect(plan.steps).toEqual([expect.objectContaining({ kind: 'set-inventories', uuid: enabled.uuid, inventories: { FPGA: expect.objectContaining({ total: 4, reserved: 4 }) } })]);
    expect(plan.steps[0].why).toContain('reserved 0');
  });

  it('given a fenced provider whose units consumers hold, when planned, then only the free units are reserved, so a holder can still rewrite its allocation', () => {
    const gpus = desiredProvider('host-a_0000:81:00.0', { resourceClass: 'PGPU', total: 4, maxUnit: 4 });
    const fenced = { ...gpus, reserved: 4, reservedBecause: ['fenced' as const] };
    const plan = planHostPlacement(desired(fenced), actual(inPlacement(gpus, 3, { usages: { PGPU: 3 } })));
    expect(plan.steps).toEqual([expect.objectContaining({ kind: 'set-inventories', inventories: { PGPU: expect.objectContaining({ total: 4, reserved: 1 }) } })]);
    // Once the holders are gone (an evacuated instance's source allocation deleted), the rest is reserved too.
    const freed = planHostPlacement(desired(fenced), actual(inPlacement(gpus, 3, { inventories: desiredInventories(fenced, 3), usages: { PGPU: 0 } })));
    expect(freed.steps).toEqual([expect.objectContaining({ kind: 'set-inventories', inventories: { PGPU: expect.objectContaining({ reserved: 4 }) } })]);
  });

  it('given a trait changed by hand, when planned, then only the traits are written back and the change is named', () => {
    const fpga = desiredProvider('host-a_0000:5e:00.0');
    const plan = planHostPlacement(desired(fpga), actual(inPlacement(fpga, 5, { traits: [OWNER_TRAIT, 'CUSTOM_SOMETHING_ELSE'] })));
    expect(plan.steps).toEqual([{ kind: 'set-traits', uuid: fpga.uuid, traits: fpga.traits, why: expect.stringContaining('+CUSTOM_FPGA_INTEL -CUSTOM_SOMETHING_ELSE') }]);
  });

  it('given an allocation ratio changed by hand, when planned, then the inventory is written back', () => {
    const fpga = desiredProvider('host-a_0000:5e:00.0');
    const drifted = inPlacement(fpga, 3, { inventories: { FPGA: { ...desiredInventories(fpga).FPGA, allocationRatio: 16 } } });
    expect(planHostPlacement(desired(fpga), actual(drifted)).steps.map((step) => step.kind)).toEqual(['set-inventories']);
  });

  it('given a device removed with no allocations on its provider, when planned, then the provider is deleted', () => {
    const gone = desiredProvider('host-a_0000:5e:00.0');
    const plan = planHostPlacement(desired(), actual(inPlacement(gone, 2, { usages: { FPGA: 0 } })));
    expect(plan).toEqual({ steps: [expect.objectContaining({ kind: 'delete-provider', uuid: gone.uuid })], blocked: [] });
  });

  it('given a removed device whose provider holds an allocation, when planned, then its inventory is reserved and the provider is reported blocked, not deleted', () => {
    const gone = desiredProvider('host-a_0000:5e:00.0', { total: 2, maxUnit: 2 });
    const plan = planHostPlacement(desired(), actual(inPlacement(gone, 4, { usages: { FPGA: 1 } })));
    expect(plan.steps).toEqual([expect.objectContaining({ kind: 'set-inventories', uuid: gone.uuid, inventories: { FPGA: expect.objectContaining({ total: 2, reserved: 2 }) } })]);
    expect(plan.blocked).toEqual([{ uuid: gone.uuid, name: gone.name, usages: { FPGA: 1 } }]);
  });

  it('given a blocked provider already reserved, when planned again, then nothing is written and it stays blocked', () => {
    const gone = desiredProvider('host-a_0000:5e:00.0', { reserved: 1 });
    const plan = planHostPlacement(desired(), actual(inPlacement(gone, 5, { usages: { FPGA: 1 } })));
    expect(plan.steps).toEqual([]);
    expect(plan.blocked.map((provider) => provider.uuid)).toEqual([gone.uuid]);
  });

  it('given a device with no capacity, when planned, then its provider has no inventory', () => {
    const empty = desiredProvider('host-a_0000:5e:00.0', { total: 0, maxUnit: 0 });
    expect(planHostPlacement(desired(empty), actual()).steps.map((step) => step.kind)).toEqual(['create-provider', 'set-traits']);
  });
});
