import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { type CommandData, typedCommandHandlers, type WorkflowCommandHandlers } from '@ledger/workflows';
import { carvedPartitionIdentity, ClaimAttachHandleCommand, ReleaseAttachHandleCommand, ReleaseCarveCommand, ReserveCarveCommand } from '@ledger/inventory';
import { ReleaseQuotaCommand, ReserveQuotaCommand } from '@ledger/quota';
import { boundAttachHandle } from '../../../domain/attach-handle-info';
import { ALLOCATION_DIRECTORY, type AllocationDirectory } from '../allocation-directory.port';
import { ArqStore } from '../arq-store';
import type { BindCommand, CarvedPartitionClaim, ClaimEvidence } from './bind-workflow';
import { CarveBindTogether } from './carve-bind-together';

/**
 * The commands of the bind workflow, by type: each one idempotent, keyed by
 * the request and its bind id, so a send repeated after a crash changes
 * nothing the first one did.
 */
@Injectable()
export class BindWorkflowCommands {
  constructor(
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ALLOCATION_DIRECTORY) private readonly directory: AllocationDirectory,
    @Inject(CarveBindTogether) private readonly together: CarveBindTogether,
  ) {}

  handlers(): WorkflowCommandHandlers {
    const at = () => new Date().toISOString();
    return typedCommandHandlers<BindCommand>({
      'allocation.StartBind': (data, context) => this.arqs.run({ type: 'StartBind', uuid: data.uuid, bindId: data.bindId, ...data.binding, at: at() }, context).then(nothing),
      'allocation.FailBind': (data, context) => this.arqs.run({ type: 'FailBind', ...data, at: at() }, context).then(nothing),
      'allocation.CompleteBind': (data, context) => this.arqs.run({ type: 'CompleteBind', ...data, at: at() }, context).then(nothing),
      'quota.Reserve': (data, context) => this.commands.execute(new ReserveQuotaCommand(data, context)).then(nothing),
      'quota.Release': (data, context) => this.commands.execute(new ReleaseQuotaCommand(data, context)).then(nothing),
      'inventory.ClaimAttachHandle': (data, context) => this.claim(data, context),
      'inventory.ReleaseAttachHandle': (data, context) => this.commands.execute(new ReleaseAttachHandleCommand(data, context)).then((released) => ({ released })),
      'inventory.ReserveCarve': (data, context) => this.commands.execute(new ReserveCarveCommand(data, context)),
      'inventory.ReleaseCarve': (data, context) => this.commands.execute(new ReleaseCarveCommand(data, context)).then((released) => ({ released })),
      'inventory.ClaimCarvedPartition': (data, context) => this.claimCarved(data, context),
      'allocation.StartCarveBind': (data, context) => this.together.start(data, context),
      'allocation.UndoCarveBindStart': (data, context) => this.together.undo({ ...data, at: at() }, context).then(nothing),
      'allocation.ClaimCarvedAndBind': (data, context) => this.together.claimAndBind(data, context),
    });
  }

  /** Claims a handle among the deployable's (free ones first, per the read model; the device's stream decides). */
  private async claim(data: ClaimInput, context: CommandContext): Promise<ClaimEvidence> {
    const handles = await this.directory.attachHandlesOf(data.deployableUuid);
    const claim = await this.commands.execute(new ClaimAttachHandleCommand({ ...data, candidates: handles.map((handle) => handle.uuid) }, context));
    const handle = handles.find((candidate) => candidate.uuid === claim.handleUuid);
    if (!handle) throw new Error(`claimed handle ${claim.handleUuid} is not among deployable ${data.deployableUuid}'s handles`);
    return { attachHandle: boundAttachHandle(handle) };
  }

  /**
   * Claims the partition the bind just carved. Its deployable and handle
   * uuids are derived from where it was carved, so the claim need not wait
   * for the agent's next report to show it (the device's stream decides).
   */
  private async claimCarved(data: CarvedPartitionClaim, context: CommandContext): Promise<ClaimEvidence> {
    const { reserved, carved } = data;
    const partition = { profile: reserved.profile, handle: carved.handle, start: reserved.start, slices: reserved.slices };
    const identity = carvedPartitionIdentity(data.hostname, data.deviceUuid, reserved.pciAddress, reserved.kind, partition);
    const { deviceUuid, arqUuid, bindId, projectId } = data;
    const named = { handle: carved.handle, hostname: data.hostname, pciAddress: reserved.pciAddress };
    await this.commands.execute(new ClaimAttachHandleCommand({ deviceUuid, deployableUuid: identity.deployableUuid, arqUuid, bindId, projectId, candidates: [identity.handleUuid], partition: named }, context));
    const { kind, address, mdevType, slot } = identity.handle;
    return { attachHandle: boundAttachHandle({ uuid: identity.handleUuid, kind, address, physicalNetwork: null, mdevType: mdevType ?? null, slot: slot ?? null, partition: carved.handle }) };
  }
}

type ClaimInput = CommandData<BindCommand, 'inventory.ClaimAttachHandle'>;

const nothing = (): undefined => undefined;

