import { ConflictError, type Decider, isUuid, NotFoundError, ValidationError } from '@ledger/kernel';
import {
  ATTRIBUTE_KEY,
  AttributeErrorCodes,
  attributeUuidOf,
  isDiscoveredAttributeKey,
  MAX_ATTRIBUTE_VALUE_LENGTH,
} from './attribute';
import type { AttributeEvent } from './inventory.events';

/** An operator sets `key` = `value` on a deployable; the attribute's uuid follows from both. */
export interface CreateAttribute {
  readonly type: 'CreateAttribute';
  readonly deployableUuid: string;
  readonly key: string;
  readonly value: string;
  readonly createdAt: string;
}

export interface DeleteAttribute {
  readonly type: 'DeleteAttribute';
  readonly uuid: string;
}

export type AttributeCommand = CreateAttribute | DeleteAttribute;

export interface AttributeState {
  readonly present: boolean;
  readonly deployableUuid: string | null;
}

/**
 * An operator's attribute of a deployable (stream `attribute-<uuid>`). The
 * uuid is derived from the deployable and the key, so the stream is the
 * consistency boundary of "one value per key": a second create is refused
 * until the first is deleted, and then the same stream records it again.
 */
export const attributeDecider: Decider<AttributeCommand, AttributeState, AttributeEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'CreateAttribute':
        return decideCreate(command, state);
      case 'DeleteAttribute': {
        if (!state.present || state.deployableUuid === null) {
          throw new NotFoundError(AttributeErrorCodes.NOT_FOUND, `attribute ${command.uuid} does not exist`, { uuid: command.uuid });
        }
        return [{ type: 'inventory.AttributeDeleted', data: { uuid: command.uuid.toLowerCase(), deployableUuid: state.deployableUuid } }];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'inventory.AttributeCreated':
        return { present: true, deployableUuid: event.data.deployableUuid };
      case 'inventory.AttributeDeleted':
        return { ...state, present: false };
      default:
        return state;
    }
  },
  initialState: () => ({ present: false, deployableUuid: null }),
};

function decideCreate(command: CreateAttribute, state: AttributeState): AttributeEvent[] {
  const { key, value } = command;
  if (!isUuid(command.deployableUuid)) invalid('deployableUuid must be a uuid', 'deployableUuid');
  if (typeof key !== 'string' || !ATTRIBUTE_KEY.test(key)) {
    invalid('key must be 1 to 255 letters, digits or the characters _ . : -', 'key');
  }
  if (typeof value !== 'string' || value.length > MAX_ATTRIBUTE_VALUE_LENGTH) {
    invalid(`value must be a string of at most ${MAX_ATTRIBUTE_VALUE_LENGTH} characters`, 'value');
  }
  const deployableUuid = command.deployableUuid.toLowerCase();
  if (isDiscoveredAttributeKey(key)) {
    throw new ConflictError(AttributeErrorCodes.RESERVED_KEY, `${key} is discovered from the agent's report and cannot be set`, { key });
  }
  if (state.present) {
    throw new ConflictError(AttributeErrorCodes.DUPLICATE_KEY, `deployable ${deployableUuid} already has an attribute ${key}`, {
      deployableUuid,
      key,
    });
  }
  const uuid = attributeUuidOf(deployableUuid, key);
  return [{ type: 'inventory.AttributeCreated', data: { uuid, deployableUuid, key, value, createdAt: command.createdAt } }];
}

function invalid(rule: string, path: string): never {
  throw new ValidationError(AttributeErrorCodes.INVALID, rule, { path });
}
