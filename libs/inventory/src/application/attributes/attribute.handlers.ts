import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, type EventStore, handleCommand } from '@ledger/eventstore';
import { isUuid, NotFoundError, ValidationError } from '@ledger/kernel';
import { AttributeErrorCodes, attributeStream, attributeUuidOf } from '../../domain/attribute';
import { attributeDecider } from '../../domain/attribute.decider';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import { type AttributeCreated, INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { type InventoryCommandResult, toInventoryCommandResult } from '../inventory-command.result';
import { HOST_INVENTORY_CACHE } from '../inventory.tokens';
import { findDeployableOnHost } from '../deployable-on-host';
import { CreateAttributeCommand, type CreatedAttribute, DeleteAttributeCommand } from './attribute.commands';

const options = { schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS };

@CommandHandler(CreateAttributeCommand)
export class CreateAttributeHandler implements ICommandHandler<CreateAttributeCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hostCache: AggregateCache<HostInventoryState>,
  ) {}

  async execute({ input, context, createdAt }: CreateAttributeCommand): Promise<CreatedAttribute> {
    if (!(await findDeployableOnHost(this.store, this.hostCache, input))) {
      throw new ValidationError(AttributeErrorCodes.UNKNOWN_DEPLOYABLE, `deployable ${input.deployableUuid} is not in the inventory`, {
        deployableUuid: input.deployableUuid,
      });
    }
    const { deployableUuid, key, value } = input;
    // The key picks the stream, so it is checked before anything is read: the decider checks it again with the rest.
    const stream = attributeStream(attributeUuidOf(deployableUuid, typeof key === 'string' ? key : ''));
    const command = { type: 'CreateAttribute', deployableUuid, key, value, createdAt: createdAt ?? new Date().toISOString() } as const;
    const result = await handleCommand(this.store, stream, attributeDecider, command, context, options);
    return { attribute: (result.events[0] as AttributeCreated).data, position: result.position };
  }
}

@CommandHandler(DeleteAttributeCommand)
export class DeleteAttributeHandler implements ICommandHandler<DeleteAttributeCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ uuid, context }: DeleteAttributeCommand): Promise<InventoryCommandResult> {
    if (!isUuid(uuid)) throw new NotFoundError(AttributeErrorCodes.NOT_FOUND, `attribute ${String(uuid).slice(0, 64)} does not exist`);
    const id = uuid.toLowerCase();
    const result = await handleCommand(this.store, attributeStream(id), attributeDecider, { type: 'DeleteAttribute', uuid: id }, context, options);
    return toInventoryCommandResult(result);
  }
}
