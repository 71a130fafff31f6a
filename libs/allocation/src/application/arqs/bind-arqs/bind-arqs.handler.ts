import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { AgentLostError, ClaimAttachHandleCommand, DeviceUnhealthyError } from '@ledger/inventory';
import { ConflictError, isLedgerError } from '@ledger/kernel';
import { ReleaseQuotaCommand, ReserveQuotaCommand } from '@ledger/quota';
import type { StartBind } from '../../../domain/arq.decider';
import { ArqErrorCodes, ArqInvalidError } from '../../../domain/arq.errors';
import type { BindRequest } from '../../../domain/arq-patch';
import type { LiveArq } from '../../../domain/arq.state';
import { boundAttachHandle } from '../../../domain/attach-handle-info';
import { ALLOCATION_DIRECTORY, type AllocationDirectory, type ProviderDescription } from '../allocation-directory.port';
import { assertAccepted, ArqStore, liveOrThrow } from '../arq-store';
import { capacityConsumer, capacityResources } from '../capacity-quota';
import { BindArqsCommand } from './bind-arqs.command';

interface PlannedBind {
  readonly arq: LiveArq;
  readonly start: StartBind;
  readonly provider: ProviderDescription;
}

@CommandHandler(BindArqsCommand)
export class BindArqsHandler implements ICommandHandler<BindArqsCommand> {
  constructor(
    @Inject(ALLOCATION_DIRECTORY) private readonly directory: AllocationDirectory,
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {}

  async execute({ input, context }: BindArqsCommand): Promise<LiveArq[]> {
    await this.directory.catchUp();
    const plans = await Promise.all(input.binds.map((bind) => this.plan(bind, input.visibility)));
    await this.refuseHotAdd(plans);
    await this.reserveCapacity(plans, context);
    const outcomes = await Promise.all(plans.map((plan) => this.bindOne(plan, context)));
    const failed = outcomes.filter((arq) => arq.state === 'BindFailed');
    if (failed.length > 0) {
      const reasons = failed.map((arq) => `${arq.uuid}: ${arq.failure?.reason ?? 'failed'}`).join('; ');
      throw new ConflictError(ArqErrorCodes.BIND_FAILED, `Binding failed for ${failed.length} of ${outcomes.length} accelerator requests: ${reasons}`, {
        failed: failed.map((arq) => ({ uuid: arq.uuid, code: arq.failure?.code ?? null })),
      });
    }
    return outcomes;
  }

  /** Everything checked before anything is recorded: visibility, state, provider, resource class and traits. */
  private async plan(bind: BindRequest, visibility: BindArqsCommand['input']['visibility']): Promise<PlannedBind> {
    const arq = await this.arqs.loadVisible(bind.uuid, visibility);
    if (bind.projectId !== undefined && bind.projectId !== arq.projectId) {
      throw new ArqInvalidError(`${bind.uuid}/project_id`, `project_id ${bind.projectId} is not the project of accelerator request ${bind.uuid}`);
    }
    const provider = await this.directory.providerByRpUuid(bind.deviceRpUuid);
    if (!provider) {
      throw new ArqInvalidError(`${bind.uuid}/device_rp_uuid`, `No accelerator resource provider ${bind.deviceRpUuid} is known`);
    }
    assertProviderFits(arq, provider, bind.deviceRpUuid);
    assertDeviceUsable(provider);
    const start: StartBind = {
      type: 'StartBind',
      uuid: arq.uuid,
      hostname: bind.hostname,
      deviceRpUuid: bind.deviceRpUuid,
      instanceUuid: bind.instanceUuid,
      deviceUuid: provider.deviceUuid,
      deployableUuid: provider.deployableUuid,
      at: new Date().toISOString(),
    };
    assertAccepted(arq, start);
    return { arq, start, provider };
  }

  /**
   * Cyborg has no hot-add: an instance that owns requests gets no more (re-binding the same ones is a
   * repeat, not an add). Only the requests of the bound request's own project count: an instance id is
   * Nova's, not a secret, and counting another project's requests would tell a tenant which instance ids
   * that project uses (and let it block them by binding first).
   */
  private async refuseHotAdd(plans: readonly PlannedBind[]): Promise<void> {
    const binding = new Set(plans.map((plan) => plan.arq.uuid));
    const checked = new Set<string>();
    for (const { arq, start } of plans) {
      const key = `${start.instanceUuid} ${arq.projectId}`;
      if (checked.has(key)) continue;
      checked.add(key);
      const owned = (await this.directory.arqsOfInstance(start.instanceUuid)).filter((other) => other.projectId === arq.projectId && !binding.has(other.uuid));
      if (owned.length > 0) {
        throw new ArqInvalidError(
          'instance_uuid',
          `Couldn't apply patch. Reason: Instance ${start.instanceUuid} already has accelerator requests. Cannot bind additional ARQs.`,
        );
      }
    }
  }

  /** Device capacity (e.g. GPU memory) counts against the project's quota while bound: reserved for all or none. */
  private async reserveCapacity(plans: readonly PlannedBind[], context: CommandContext): Promise<void> {
    const byProject = new Map<string, { consumerId: string; resources: Record<string, number> }[]>();
    for (const { arq, provider } of plans) {
      const resources = capacityResources(provider.capacity);
      if (Object.keys(resources).length === 0) continue;
      byProject.set(arq.projectId, [...(byProject.get(arq.projectId) ?? []), { consumerId: capacityConsumer(arq.uuid), resources }]);
    }
    for (const [project, consumers] of byProject) {
      await this.commands.execute(new ReserveQuotaCommand({ project, consumers }, context));
    }
  }

  private async bindOne({ arq, start, provider }: PlannedBind, context: CommandContext): Promise<LiveArq> {
    await this.arqs.run(start, context);
    try {
      const handles = await this.directory.attachHandlesOf(provider.deployableUuid);
      const claim = await this.commands.execute(
        new ClaimAttachHandleCommand(
          { deviceUuid: provider.deviceUuid, deployableUuid: provider.deployableUuid, arqUuid: arq.uuid, candidates: handles.map((handle) => handle.uuid) },
          context,
        ),
      );
      const handle = handles.find((candidate) => candidate.uuid === claim.handleUuid);
      if (!handle) throw new Error(`claimed handle ${claim.handleUuid} is not among the deployable's handles`);
      const bound = await this.arqs.run({ type: 'CompleteBind', uuid: arq.uuid, attachHandle: boundAttachHandle(handle), at: new Date().toISOString() }, context);
      return liveOrThrow(bound, arq.uuid);
    } catch (error) {
      if (!isLedgerError(error) || error.status >= 500) throw error; // the sweeper fails a bind left BindStarted
      const failed = await this.arqs.run({ type: 'FailBind', uuid: arq.uuid, code: error.code, reason: error.message, at: new Date().toISOString() }, context);
      await this.commands.execute(new ReleaseQuotaCommand({ project: arq.projectId, consumerIds: [capacityConsumer(arq.uuid)] }, context));
      return liveOrThrow(failed, arq.uuid);
    }
  }
}

/**
 * A failed device or a lost agent refuses the whole patch before anything
 * is recorded (Placement reserves such providers, so Nova should not pick
 * them; a stale scheduler view still might). The read model is fresh
 * (catchUp); a device that fails between this check and the claim is
 * refused by the device's own stream, and the bind ends BindFailed.
 * A lost agent lives on the host stream, which the claim does not read, so
 * this check is the only one for it: a loss recorded in that window lets
 * the claim through, as a loss recorded just after it would.
 */
function assertDeviceUsable(provider: ProviderDescription): void {
  if (provider.deviceHealth === 'failed') throw new DeviceUnhealthyError(provider.deviceUuid, provider.deviceHealthReason);
  if (provider.agentLost) throw new AgentLostError(provider.hostname, provider.deviceUuid);
}

function assertProviderFits(arq: LiveArq, provider: ProviderDescription, rpUuid: string): void {
  const problem =
    provider.resourceClass !== arq.resourceClass
      ? `offers ${provider.resourceClass}, the request asks for ${arq.resourceClass}`
      : arq.requiredTraits.find((trait) => !provider.traits.includes(trait))
        ? `lacks required trait ${arq.requiredTraits.find((trait) => !provider.traits.includes(trait))}`
        : arq.forbiddenTraits.find((trait) => provider.traits.includes(trait))
          ? `has forbidden trait ${arq.forbiddenTraits.find((trait) => provider.traits.includes(trait))}`
          : null;
  if (problem !== null) {
    throw new ConflictError(ArqErrorCodes.PROVIDER_MISMATCH, `Resource provider ${rpUuid} ${problem}`, { uuid: arq.uuid, rpUuid });
  }
}
