import { ValidationError } from '@ledger/kernel';
import { type DeviceHealth, type DeviceHealthRecord, isDeviceHealth, MAX_HEALTH_REASON_LENGTH, upcastDeviceHealthChanged } from './device-health';
import { type DeviceHealthCause, healthCauseProblem, normalizeHealthCause } from './health-cause';
import { type HealthJudgment, type HealthPolicy, judgeHealth, sameRecovery, stricterJudgment } from './health-policy';
import { DEFAULT_HEALTH_POLICY } from './health-policy.default';
import { InventoryErrorCodes } from './inventory.errors';
import type { AttachHandleClaim, DeviceHealthEvent } from './inventory.events';

/** What a heartbeat says of the device's health, judged by `policy` (the default policy when absent). */
export interface RecordDeviceHealth {
  readonly type: 'RecordDeviceHealth';
  readonly deviceUuid: string;
  readonly health: DeviceHealth;
  readonly reason: string | null;
  readonly cause?: DeviceHealthCause | null;
  /** When the ledger received the heartbeat (ISO-8601). */
  readonly observedAt: string;
  readonly policy?: HealthPolicy;
}

/** An operator declares the device healthy again (the recovery a policy left to a person, or any other). */
export interface ClearDeviceHealth {
  readonly type: 'ClearDeviceHealth';
  readonly deviceUuid: string;
  /** The operator's user id. */
  readonly by: string;
  readonly note: string | null;
  readonly clearedAt: string;
  readonly policy?: HealthPolicy;
}

export type DeviceHealthCommand = RecordDeviceHealth | ClearDeviceHealth;

export const MAX_HEALTH_CLEAR_NOTE_LENGTH = 255;

const OK: DeviceHealthRecord = { health: 'ok', reason: null, observedAt: '', cause: null, effect: 'none', recovery: null, policyVersion: null, healthyChecks: 0 };

/**
 * A report is judged by the policy; what is recorded:
 * - unhealthy: DeviceHealthChanged when the level changes, the judgment is
 *   stricter than the one in force, or a recovery under way is broken
 *   (a new reason or count at the same judgment is telemetry); while
 *   unhealthy the judgment only tightens, so a device drained for an Xid 79
 *   is not eased by a milder report after it. Entering `drain` while requests
 *   hold the device adds DeviceDrainRequested, naming them.
 * - healthy while unhealthy: nothing when an operator must clear it;
 *   otherwise DeviceHealthCheckPassed per check, and DeviceHealthChanged to
 *   `ok` at the last one.
 */
export function decideHealthReport(deviceUuid: string, command: RecordDeviceHealth, current: DeviceHealthRecord | undefined, claims: readonly AttachHandleClaim[]): DeviceHealthEvent[] {
  if (!isDeviceHealth(command.health)) {
    throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, 'health must be ok, degraded or failed', { path: 'health' });
  }
  const reason = checkedText(command.reason, 'reason', MAX_HEALTH_REASON_LENGTH);
  const cause = checkedCause(command.cause);
  const policy = command.policy ?? DEFAULT_HEALTH_POLICY;
  const now = current ?? OK;
  const { observedAt } = command;
  if (command.health === 'ok') return decideHealthyCheck(deviceUuid, now, observedAt, policy.version);
  const judged = judgeHealth(policy, command.health, cause);
  const inForce = now.health === 'ok' ? judged : stricterJudgment(judgmentOf(now), judged);
  const unchanged = now.health === command.health && now.effect === inForce.effect && sameRecovery(now.recovery, inForce.recovery) && now.healthyChecks === 0;
  if (unchanged) return [];
  const changed: DeviceHealthEvent = {
    type: 'inventory.DeviceHealthChanged',
    data: { deviceUuid, health: command.health, reason, observedAt, cause, effect: inForce.effect, recovery: inForce.recovery, policyVersion: inForce.policyVersion },
  };
  if (inForce.effect !== 'drain' || now.effect === 'drain' || claims.length === 0) return [changed];
  const holders = claims.map(({ arqUuid, projectId, deployableUuid, handleUuid }) => ({ arqUuid, projectId: projectId ?? null, deployableUuid, handleUuid }));
  return [changed, { type: 'inventory.DeviceDrainRequested', data: { deviceUuid, holders, cause, reason, policyVersion: inForce.policyVersion, requestedAt: observedAt } }];
}

function decideHealthyCheck(deviceUuid: string, now: DeviceHealthRecord, observedAt: string, policyVersion: string): DeviceHealthEvent[] {
  if (now.health === 'ok' || now.recovery === null || now.recovery === 'operator') return [];
  const checks = now.healthyChecks + 1;
  const of = now.recovery.healthyChecks;
  if (checks < of) return [{ type: 'inventory.DeviceHealthCheckPassed', data: { deviceUuid, healthyChecks: checks, of, observedAt, policyVersion } }];
  return [recovered(deviceUuid, observedAt, policyVersion, { healthyChecks: checks })];
}

/** An operator's clear: back to `ok` whatever the recovery (nothing when already ok). */
export function decideHealthClear(deviceUuid: string, command: ClearDeviceHealth, current: DeviceHealthRecord | undefined): DeviceHealthEvent[] {
  const note = checkedText(command.note, 'note', MAX_HEALTH_CLEAR_NOTE_LENGTH);
  if ((current ?? OK).health === 'ok') return [];
  const policyVersion = (command.policy ?? DEFAULT_HEALTH_POLICY).version;
  return [recovered(deviceUuid, command.clearedAt, policyVersion, { operator: command.by, note })];
}

/** The device's health after one of its health events (null: not a health event). */
export function evolveDeviceHealth(current: DeviceHealthRecord | undefined, event: DeviceHealthEvent): DeviceHealthRecord | undefined {
  switch (event.type) {
    case 'inventory.DeviceHealthChanged': {
      const { health, reason, observedAt, cause, effect, recovery, policyVersion } = upcastDeviceHealthChanged(event.data);
      return { health, reason, observedAt, cause, effect, recovery, policyVersion, healthyChecks: 0 };
    }
    case 'inventory.DeviceHealthCheckPassed':
      return current === undefined ? current : { ...current, healthyChecks: event.data.healthyChecks };
    case 'inventory.DeviceDrainRequested':
      return current;
  }
}

const recovered = (deviceUuid: string, observedAt: string, policyVersion: string, recoveredBy: NonNullable<Extract<DeviceHealthEvent, { type: 'inventory.DeviceHealthChanged' }>['data']['recoveredBy']>): DeviceHealthEvent => ({
  type: 'inventory.DeviceHealthChanged',
  data: { deviceUuid, health: 'ok', reason: null, observedAt, cause: null, effect: 'none', recovery: null, policyVersion, recoveredBy },
});

const judgmentOf = (record: DeviceHealthRecord): HealthJudgment => ({
  effect: record.effect === 'none' ? 'watch' : record.effect,
  recovery: record.recovery ?? { healthyChecks: 1 },
  policyVersion: record.policyVersion ?? '',
});

function checkedText(value: string | null | undefined, path: string, max: number): string | null {
  const text = value ?? null;
  if (text !== null && (typeof text !== 'string' || text.length > max)) {
    throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `${path} must be a string of at most ${max} characters`, { path });
  }
  return text;
}

function checkedCause(value: DeviceHealthCause | null | undefined): DeviceHealthCause | null {
  if (value == null) return null;
  const problem = healthCauseProblem(value);
  if (problem) throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `cause${problem[0]} ${problem[1]}`, { path: `cause${problem[0]}` });
  return normalizeHealthCause(value);
}
