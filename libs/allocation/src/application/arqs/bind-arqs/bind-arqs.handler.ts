import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AgentLostError, carveRoomProfileOf, defaultDeployableName, DeviceUnhealthyError, HostFencedError, providerCapacity } from '@ledger/inventory';
import type { CommandContext } from '@ledger/eventstore';
import { ConflictError, isLedgerError, uuidV7 } from '@ledger/kernel';
import { QuotaReader } from '@ledger/quota';
import type { StartBind } from '../../../domain/arq.decider';
import { arqStream } from '../../../domain/arq.events';
import type { BindProgram } from '../../../domain/bind-program';
import { ArqErrorCodes, ArqInvalidError } from '../../../domain/arq.errors';
import type { BindRequest } from './arq-patch';
import type { ArqState, LiveArq } from '../../../domain/arq.state';
import { ALLOCATION_DIRECTORY, type AllocationDirectory, type ProviderDescription } from '../allocation-directory.port';
import { assertAccepted, ArqStore, liveOrThrow } from '../arq-store';
import { capacityConsumer, capacityResources } from '../capacity-quota';
import { BindArqsCommand } from './bind-arqs.command';
import { BindAtOnceDecision } from './bind-at-once';
import { bindProgramOf } from './bind-program.resolver';
import { BIND_WORKFLOW, type BindStart } from './bind-workflow';
import { BIND_WAIT_MS, BIND_WORKFLOWS, type BindWorkflows } from './bind-workflow.port';

/** Binds are not cancelled with their HTTP request: a client that goes away leaves the bind to finish. */
const NEVER_ABORTED = new AbortController().signal;

interface PlannedBind {
  readonly arq: LiveArq;
  readonly start: StartBind;
  readonly provider: ProviderDescription;
  readonly program: BindProgram | null;
  /** The provider is room to carve a partition of this profile (docs/partitions.md); null: it binds what exists. */
  readonly carve: { readonly profile: string } | null;
}

@CommandHandler(BindArqsCommand)
export class BindArqsHandler implements ICommandHandler<BindArqsCommand> {
  constructor(
    @Inject(ALLOCATION_DIRECTORY) private readonly directory: AllocationDirectory,
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(QuotaReader) private readonly quota: QuotaReader,
    @Inject(BIND_WORKFLOWS) private readonly workflows: BindWorkflows,
    @Inject(BIND_WAIT_MS) private readonly waitMs: number,
    @Inject(BindAtOnceDecision) private readonly atOnce: BindAtOnceDecision,
  ) {}

  async execute({ input, context }: BindArqsCommand): Promise<LiveArq[]> {
    await this.directory.catchUp();
    const plans = await Promise.all(input.binds.map((bind) => this.plan(bind, input.visibility)));
    await this.refuseHotAdd(plans);
    await this.assertCapacityAdmits(plans);
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

  /** Everything checked before anything is recorded: visibility, state, provider, resource class and traits, the bitstream to load. */
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
    // A repeat of a bind that started waits for it: what it loads was chosen then, and a bitstream retired since does not refuse the repeat.
    const program = isBindRunOrDone(arq) ? null : await bindProgramOf(this.directory, arq, provider);
    const carveProfile = carveRoomProfileOf(defaultDeployableName(provider.hostname, provider.pciAddress), provider.name);
    return { arq, start, provider, program, carve: carveProfile === undefined ? null : { profile: carveProfile } };
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

  /**
   * Device capacity (e.g. GPU memory) counts against the project's quota
   * while bound. Checked here for all the patch's binds at once, recording
   * nothing (a bind over quota is refused before anything starts); each
   * bind's workflow then charges its own, and gives it back if it fails.
   */
  private async assertCapacityAdmits(plans: readonly PlannedBind[]): Promise<void> {
    const byProject = new Map<string, { consumerId: string; resources: Record<string, number> }[]>();
    for (const { arq, provider } of plans) {
      const resources = chargedCapacity(provider);
      if (Object.keys(resources).length === 0) continue;
      byProject.set(arq.projectId, [...(byProject.get(arq.projectId) ?? []), { consumerId: capacityConsumer(arq.uuid), resources }]);
    }
    for (const [project, consumers] of byProject) await this.quota.assertAdmits(project, consumers);
  }

  /**
   * A bind with nothing to do on the host is decided at once
   * (bind-at-once.ts); one that programs, or carves a partition, runs the
   * request's bind workflow and waits for it to
   * end (up to the bind timeout; Nova hears the outcome either way). The
   * same bind again waits for the one already running instead of starting
   * another.
   */
  private async bindOne({ arq, start, provider, program, carve }: PlannedBind, context: CommandContext): Promise<LiveArq> {
    if (isBindRunOrDone(arq)) {
      if (arq.state === 'BindStarted' && arq.binding?.bindId) await this.waitForBind(arq.binding.bindId);
      return liveOrThrow(await this.arqs.load(arq.uuid), arq.uuid);
    }
    // An earlier bind of this request may still be undoing its steps: the new one starts after it.
    if (arq.lastBindId) await this.waitForBind(arq.lastBindId);
    const bindId = uuidV7();
    const capacity = chargedCapacity(provider);
    if (program === null && carve === null && this.atOnce.available) {
      return this.atOnce.bind({ start, bindId, projectId: arq.projectId, capacity }, context);
    }
    const data: BindStart = {
      arqUuid: arq.uuid,
      projectId: arq.projectId,
      bindId,
      binding: { hostname: start.hostname, deviceRpUuid: start.deviceRpUuid, instanceUuid: start.instanceUuid, deviceUuid: start.deviceUuid, deployableUuid: start.deployableUuid },
      capacity,
      program,
      carve,
      // Where the store appends to several streams at once, a carving bind's steps that need no outside party are decided together.
      ...(carve !== null && program === null && this.atOnce.available ? { decidedTogether: true } : {}),
    };
    const status = await this.workflows.begin(BIND_WORKFLOW, bindId, { requestId: bindId, data, subject: arqStream(arq.uuid) }, NEVER_ABORTED);
    // The request's own stream says the outcome: bound by the last step, or failed by the last undo, one append before the workflow records its end.
    if (status === 'running') await this.waitForBind(bindId, async () => isSettledBy(await this.arqs.load(arq.uuid), bindId));
    const state = liveOrThrow(await this.arqs.load(arq.uuid), arq.uuid);
    // Refused at its first step (the request changed since it was checked): say why, as the check would have.
    if (state.binding?.bindId !== bindId) assertAccepted(state, start);
    return state;
  }

  /** Waits for a bind workflow to end; one still running after the bind timeout is left to run (Nova hears its outcome). */
  private async waitForBind(bindId: string, settled?: () => Promise<boolean>): Promise<void> {
    try {
      await this.workflows.waitForEnd(BIND_WORKFLOW, bindId, this.waitMs, settled);
    } catch (error) {
      if (!isLedgerError(error) || (error.code !== 'WORKFLOW.WAIT_TIMED_OUT' && error.code !== 'WORKFLOW.NOT_FOUND')) throw error;
    }
  }
}

/** What a bind to the provider charges while bound: a MIG partition (carved or to carve) its profile's memory, else its device's capacity (docs/partitions.md, "Capacity"). */
const chargedCapacity = (provider: ProviderDescription): Record<string, number> =>
  capacityResources(providerCapacity({ ...provider, parentName: defaultDeployableName(provider.hostname, provider.pciAddress) }));

const isBindRunOrDone = (arq: LiveArq): boolean => arq.state === 'BindStarted' || arq.state === 'Bound';

/** The bind `bindId` of the request ended: bound, or failed. */
const isSettledBy = (arq: ArqState, bindId: string): boolean =>
  arq.status === 'live' && arq.binding?.bindId === bindId && (arq.state === 'Bound' || arq.state === 'BindFailed');

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
  // The device's stream refuses a claim too (a fence recorded after this check): the bind then ends BindFailed.
  if (provider.hostFenced) throw new HostFencedError(provider.hostname, provider.deviceUuid);
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
