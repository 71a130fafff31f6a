import type { HostInventoryEvent, HostProvisioningEvent } from './inventory.events';
import { type HostProvisioningCommand, hostProvisioningDecider as decider } from './host-provisioning.decider';

const AT = '2026-11-27T00:00:00.000Z';
const registered: HostInventoryEvent = { type: 'inventory.HostRegistered', data: { hostname: 'h1', registeredAt: AT } };
const started = (provisionId: string): HostProvisioningEvent => ({ type: 'inventory.HostProvisioningStarted', data: { hostname: 'h1', provisionId, startedAt: AT } });
const given = (events: readonly (HostInventoryEvent | HostProvisioningEvent)[]) => events.reduce(decider.evolve, decider.initialState());
const start = (provisionId: string): HostProvisioningCommand => ({ type: 'StartHostProvisioning', hostname: 'h1', provisionId, at: AT });
const complete = (provisionId: string): HostProvisioningCommand => ({ type: 'CompleteHostProvisioning', hostname: 'h1', provisionId, at: AT });
const fail = (provisionId: string): HostProvisioningCommand => ({ type: 'FailHostProvisioning', hostname: 'h1', provisionId, code: 'JOB.FAILED', reason: 'no', at: AT });

describe('host provisioning (host stream)', () => {
  it('starts on a registered host, and a repeated start appends nothing', () => {
    expect(decider.decide(start('p1'), given([registered]))).toEqual([started('p1')]);
    expect(decider.decide(start('p1'), given([registered, started('p1')]))).toEqual([]);
  });

  it('refuses a host that never reported, and a second provisioning while one runs', () => {
    expect(() => decider.decide(start('p1'), given([]))).toThrow(expect.objectContaining({ code: 'INVENTORY.HOST_NOT_FOUND' }));
    expect(() => decider.decide(start('p2'), given([registered, started('p1')]))).toThrow(expect.objectContaining({ code: 'INVENTORY.HOST_PROVISIONING', status: 409 }));
  });

  it('ends provisioned or failed once, by the running workflow only', () => {
    const running = given([registered, started('p1')]);
    expect(decider.decide(complete('p1'), running)).toEqual([{ type: 'inventory.HostProvisioned', data: { hostname: 'h1', provisionId: 'p1', provisionedAt: AT } }]);
    const failed = decider.decide(fail('p1'), running);
    expect(failed).toEqual([{ type: 'inventory.HostProvisionFailed', data: { hostname: 'h1', provisionId: 'p1', code: 'JOB.FAILED', reason: 'no', failedAt: AT } }]);
    const afterFail = given([registered, started('p1'), ...(failed as HostProvisioningEvent[])]);
    expect(decider.decide(fail('p1'), afterFail)).toEqual([]);
    expect(afterFail.last).toEqual({ provisionId: 'p1', outcome: 'failed' });
    expect(() => decider.decide(complete('p2'), running)).toThrow(expect.objectContaining({ code: 'INVENTORY.PROVISIONING_NOT_RUNNING' }));
    expect(decider.decide(start('p2'), afterFail)).toEqual([started('p2')]);
  });
});
