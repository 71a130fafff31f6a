import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { typedCommandHandler as typed, type WorkflowCommandHandlers } from '@ledger/workflows';
import { ClaimAttachHandleCommand, ReleaseAttachHandleCommand } from '@ledger/inventory';
import { ReleaseQuotaCommand, ReserveQuotaCommand } from '@ledger/quota';
import type { ArqBinding } from '../../../domain/arq.state';
import type { BoundAttachHandle } from '../../../domain/arq.events';
import { boundAttachHandle } from '../../../domain/attach-handle-info';
import { ALLOCATION_DIRECTORY, type AllocationDirectory } from '../allocation-directory.port';
import { ArqStore } from '../arq-store';
import type { ClaimEvidence } from './bind-workflow';

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
  ) {}

  handlers(): WorkflowCommandHandlers {
    const at = () => new Date().toISOString();
    return {
      'allocation.StartBind': typed<{ uuid: string; bindId: string; binding: Omit<ArqBinding, 'bindId'> }>((data, context) =>
        this.arqs.run({ type: 'StartBind', uuid: data.uuid, bindId: data.bindId, ...data.binding, at: at() }, context).then(nothing),
      ),
      'allocation.FailBind': typed<{ uuid: string; bindId: string; code: string; reason: string }>((data, context) =>
        this.arqs.run({ type: 'FailBind', ...data, at: at() }, context).then(nothing),
      ),
      'allocation.CompleteBind': typed<{ uuid: string; bindId: string; attachHandle: BoundAttachHandle }>((data, context) =>
        this.arqs.run({ type: 'CompleteBind', ...data, at: at() }, context).then(nothing),
      ),
      'quota.Reserve': typed<ReserveQuotaCommand['input']>((data, context) => this.commands.execute(new ReserveQuotaCommand(data, context)).then(nothing)),
      'quota.Release': typed<ReleaseQuotaCommand['input']>((data, context) => this.commands.execute(new ReleaseQuotaCommand(data, context)).then(nothing)),
      'inventory.ClaimAttachHandle': typed<ClaimInput>((data, context) => this.claim(data, context)),
      'inventory.ReleaseAttachHandle': typed<ReleaseAttachHandleCommand['input']>((data, context) =>
        this.commands.execute(new ReleaseAttachHandleCommand(data, context)).then((released) => ({ released })),
      ),
    };
  }

  /** Claims a handle among the deployable's (free ones first, per the read model; the device's stream decides). */
  private async claim(data: ClaimInput, context: CommandContext): Promise<ClaimEvidence> {
    const handles = await this.directory.attachHandlesOf(data.deployableUuid);
    const claim = await this.commands.execute(new ClaimAttachHandleCommand({ ...data, candidates: handles.map((handle) => handle.uuid) }, context));
    const handle = handles.find((candidate) => candidate.uuid === claim.handleUuid);
    if (!handle) throw new Error(`claimed handle ${claim.handleUuid} is not among deployable ${data.deployableUuid}'s handles`);
    return { attachHandle: boundAttachHandle(handle) };
  }
}

interface ClaimInput {
  readonly deviceUuid: string;
  readonly deployableUuid: string;
  readonly arqUuid: string;
  readonly bindId: string;
}

const nothing = (): undefined => undefined;

