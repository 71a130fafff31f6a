import { deciderSpec } from '@ledger/eventstore/testing';
import { deviceDecider, type RecordDeviceHealth } from './device.decider';
import type { DeviceHealthChangedData } from './device-health';
import type { DeviceHealthCause } from './health-cause';
import { parseHealthPolicy } from './health-policy';
import type { AttachHandleClaim, DeviceEvent } from './inventory.events';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const AT = '2026-03-01T10:00:00.000Z';
const LATER = '2026-03-01T10:00:15.000Z';
const spec = deciderSpec(deviceDecider);
const report = (health: RecordDeviceHealth['health'], reason: string | null = null, observedAt = AT, cause: DeviceHealthCause | null = null): RecordDeviceHealth => ({
  type: 'RecordDeviceHealth',
  deviceUuid: DEVICE,
  health,
  reason,
  cause,
  observedAt,
});
/** What the default policy makes of a report without a cause: failed reserved, degraded watched, one healthy check brings either back. */
const changed = (health: RecordDeviceHealth['health'], reason: string | null = null, observedAt = AT, more: Partial<DeviceHealthChangedData> = {}): DeviceEvent => ({
  type: 'inventory.DeviceHealthChanged',
  data: {
    deviceUuid: DEVICE,
    health,
    reason,
    observedAt,
    cause: null,
    effect: health === 'failed' ? 'reserve' : health === 'degraded' ? 'watch' : 'none',
    recovery: health === 'ok' ? null : { healthyChecks: 1 },
    policyVersion: '1',
    ...(health === 'ok' ? { recoveredBy: { healthyChecks: 1 } } : {}),
    ...more,
  },
});

describe('deviceDecider: health', () => {
  it('records nothing for a first ok: a device starts healthy', () => {
    spec.given([]).when(report('ok')).then([]);
  });

  it('records a first degraded or failed health', () => {
    spec.given([]).when(report('degraded', 'ECC double-bit errors')).then([changed('degraded', 'ECC double-bit errors')]);
    spec.given([]).when(report('failed', 'Xid 79')).then([changed('failed', 'Xid 79')]);
  });

  it('records nothing while the level and judgment stay, whatever the reason says', () => {
    const degraded = changed('degraded', 'ECC double-bit errors');
    spec.given([degraded]).when(report('degraded', 'ECC double-bit errors', LATER)).then([]);
    spec.given([degraded]).when(report('degraded', '3 ECC errors', LATER)).then([]);
  });

  it('records every change of level, back to ok included', () => {
    const degraded = changed('degraded', 'ECC');
    spec.given([degraded]).when(report('failed', 'Xid 79', LATER)).then([changed('failed', 'Xid 79', LATER)]);
    spec.given([degraded]).when(report('ok', null, LATER)).then([changed('ok', null, LATER)]);
    spec.given([degraded, changed('ok', null, LATER)]).when(report('ok', null, LATER)).then([]);
  });

  it('keeps the last recorded health in the state beside maintenance and claims', () => {
    const disabled: DeviceEvent = { type: 'inventory.DeviceDisabled', data: { deviceUuid: DEVICE, reason: 'fan' } };
    expect(spec.given([disabled, changed('failed', 'Xid 79')]).state).toEqual({
      status: 'maintaining',
      reason: 'fan',
      claims: {},
      health: { health: 'failed', reason: 'Xid 79', observedAt: AT, cause: null, effect: 'reserve', recovery: { healthyChecks: 1 }, policyVersion: '1', healthyChecks: 0 },
    });
  });

  it('reads schema 1 health as the ledger judged it then', () => {
    const v1 = { type: 'inventory.DeviceHealthChanged', data: { deviceUuid: DEVICE, health: 'failed', reason: 'Xid 79', observedAt: AT } } as never;
    expect(spec.given([v1]).state.health).toMatchObject({ effect: 'reserve', recovery: { healthyChecks: 1 }, policyVersion: null });
    spec.given([v1]).when(report('ok', null, LATER)).then([changed('ok', null, LATER)]);
  });

  it('refuses an unknown level, an overlong reason, a bad cause or a malformed uuid', () => {
    spec.given([]).when(report('sick' as never)).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'health' });
    spec.given([]).when(report('degraded', 'x'.repeat(256))).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'reason' });
    spec.given([]).when(report('failed', null, AT, { kind: 'gremlins' } as never)).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'cause.kind' });
    spec.given([]).when({ ...report('failed'), deviceUuid: 'gpu-0' }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'deviceUuid' });
  });
});

describe('deviceDecider: health under a policy', () => {
  const policy = parseHealthPolicy({
    version: '7',
    rules: [
      { match: { kind: 'xid', codes: [79] }, effect: 'drain', recovery: 'operator' },
      { match: { kind: 'ecc', detail: 'uncorrected' }, effect: 'reserve', recovery: { healthyChecks: 3 } },
      { match: { kind: 'xid', codes: [74] }, effect: 'watch', recovery: { healthyChecks: 2 } },
    ],
  });
  const xid = (code: number): DeviceHealthCause => ({ kind: 'xid', code });
  const ecc: DeviceHealthCause = { kind: 'ecc', detail: 'uncorrected', count: 2 };
  const judged = (command: RecordDeviceHealth): RecordDeviceHealth => ({ ...command, policy });
  const claim: AttachHandleClaim = {
    deviceUuid: DEVICE,
    deployableUuid: '0b0d7a6e-1f4c-5d6e-9a1b-2c3d4e5f6a7b',
    handleUuid: '1c1e8b7f-2a5d-5e7f-8b2c-3d4e5f6a7b8c',
    arqUuid: '01900000-0000-7000-8000-00000000000a',
  };
  const claimed: DeviceEvent = { type: 'inventory.AttachHandleClaimed', data: claim };
  const eccReserved = changed('degraded', 'ECC', AT, { cause: ecc, effect: 'reserve', recovery: { healthyChecks: 3 }, policyVersion: '7' });
  const passed = (healthyChecks: number, observedAt = LATER): DeviceEvent => ({
    type: 'inventory.DeviceHealthCheckPassed',
    data: { deviceUuid: DEVICE, healthyChecks, of: 3, observedAt, policyVersion: '7' },
  });

  it('records the cause, the effect, the recovery and the version of the policy that judged it', () => {
    spec.given([]).when(judged(report('degraded', 'ECC', AT, ecc))).then([eccReserved]);
  });

  it('reserves: a reserved device refuses new claims, a watched one does not', () => {
    spec.given([eccReserved]).when({ type: 'ClaimAttachHandle', deviceUuid: DEVICE, deployableUuid: claim.deployableUuid, arqUuid: claim.arqUuid, candidates: [claim.handleUuid] }).thenThrows('INVENTORY.DEVICE_UNHEALTHY');
    const watched = changed('degraded', 'NVLink', AT, { cause: xid(74), effect: 'watch', recovery: { healthyChecks: 2 }, policyVersion: '7' });
    spec.given([watched]).when({ type: 'ClaimAttachHandle', deviceUuid: DEVICE, deployableUuid: claim.deployableUuid, arqUuid: claim.arqUuid, candidates: [claim.handleUuid] }).then([claimed]);
  });

  it('at least reserves a failed device, whatever the rule says', () => {
    const failedWatch = changed('failed', 'NVLink', AT, { cause: xid(74), effect: 'reserve', recovery: { healthyChecks: 2 }, policyVersion: '7' });
    spec.given([]).when(judged(report('failed', 'NVLink', AT, xid(74)))).then([failedWatch]);
  });

  it('drains a held device: the holders and their projects are named in DeviceDrainRequested, in the same append', () => {
    const drained = changed('failed', 'Xid 79', AT, { cause: xid(79), effect: 'drain', recovery: 'operator', policyVersion: '7' });
    const claimedByProject: DeviceEvent = { type: 'inventory.AttachHandleClaimed', data: { ...claim, projectId: 'tenant-a' } };
    const holders = [{ arqUuid: claim.arqUuid, projectId: 'tenant-a', deployableUuid: claim.deployableUuid, handleUuid: claim.handleUuid }];
    spec
      .given([claimedByProject])
      .when(judged(report('failed', 'Xid 79', AT, xid(79))))
      .then([drained, { type: 'inventory.DeviceDrainRequested', data: { deviceUuid: DEVICE, holders, cause: xid(79), reason: 'Xid 79', policyVersion: '7', requestedAt: AT } }]);
    // A claim recorded before claims carried the project: the holder is named, its project null (the request's stream has it).
    spec
      .given([claimed])
      .when(judged(report('failed', 'Xid 79', AT, xid(79))))
      .then([drained, { type: 'inventory.DeviceDrainRequested', data: { deviceUuid: DEVICE, holders: [{ ...holders[0], projectId: null }], cause: xid(79), reason: 'Xid 79', policyVersion: '7', requestedAt: AT } }]);
    // Nobody holds it: nobody to ask.
    spec.given([]).when(judged(report('failed', 'Xid 79', AT, xid(79)))).then([drained]);
    // Already drained: asked once.
    spec.given([claimed, drained]).when(judged(report('failed', 'Xid 79 again', LATER, xid(79)))).then([]);
  });

  it('recovers after N healthy checks in a row, recording each until the last', () => {
    spec.given([eccReserved]).when(judged(report('ok', null, LATER))).then([passed(1)]);
    spec.given([eccReserved, passed(1)]).when(judged(report('ok', null, LATER))).then([passed(2)]);
    spec
      .given([eccReserved, passed(1), passed(2)])
      .when(judged(report('ok', null, LATER)))
      .then([changed('ok', null, LATER, { policyVersion: '7', recoveredBy: { healthyChecks: 3 } })]);
  });

  it('starts the count again when an unhealthy report breaks the run', () => {
    const again = changed('degraded', 'ECC', LATER, { cause: ecc, effect: 'reserve', recovery: { healthyChecks: 3 }, policyVersion: '7' });
    spec.given([eccReserved, passed(1), passed(2)]).when(judged(report('degraded', 'ECC', LATER, ecc))).then([again]);
    expect(spec.given([eccReserved, passed(1), passed(2), again]).state.health?.healthyChecks).toBe(0);
  });

  it('only tightens while unhealthy: a milder report does not ease a drain', () => {
    const drained = changed('failed', 'Xid 79', AT, { cause: xid(79), effect: 'drain', recovery: 'operator', policyVersion: '7' });
    spec.given([drained]).when(judged(report('failed', 'NVLink', LATER, xid(74)))).then([]);
    const tightened = changed('degraded', 'Xid 79', LATER, { cause: xid(79), effect: 'drain', recovery: 'operator', policyVersion: '7' });
    spec.given([eccReserved]).when(judged(report('degraded', 'Xid 79', LATER, xid(79)))).then([tightened]);
  });

  it('waits for an operator where the policy says so: healthy reports record nothing, the clear brings it back', () => {
    const drained = changed('failed', 'Xid 79', AT, { cause: xid(79), effect: 'drain', recovery: 'operator', policyVersion: '7' });
    spec.given([drained]).when(judged(report('ok', null, LATER))).then([]);
    spec
      .given([drained])
      .when({ type: 'ClearDeviceHealth', deviceUuid: DEVICE, by: 'alice', note: 'GPU reset', clearedAt: LATER, policy })
      .then([changed('ok', null, LATER, { policyVersion: '7', recoveredBy: { operator: 'alice', note: 'GPU reset' } })]);
    spec.given([]).when({ type: 'ClearDeviceHealth', deviceUuid: DEVICE, by: 'alice', note: null, clearedAt: LATER }).then([]);
    spec.given([drained]).when({ type: 'ClearDeviceHealth', deviceUuid: DEVICE, by: 'alice', note: 'x'.repeat(256), clearedAt: LATER }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'note' });
  });
});
