import type { ReleaseAttachHandleCommand, ReleaseCarveCommand, ReservedCarve, ReserveCarveCommand } from '@ledger/inventory';
import type { ReleaseQuotaCommand, ReserveQuotaCommand } from '@ledger/quota';
import {
  commandsOf,
  defineStepWorkflow,
  type Failure,
  jobResultRoute,
  reportedFailure,
  type StepAction,
  type StepContext,
  stepWhen,
  type WorkflowCommand,
} from '@ledger/workflows';
import { ArqErrorCodes } from '../../../domain/arq.errors';
import type { BoundAttachHandle } from '../../../domain/arq.events';
import type { ArqBinding } from '../../../domain/arq.state';
import type { BindProgram, ProgramImage } from '../../../domain/bind-program';
import { capacityConsumer } from '../capacity-quota';
import type { CarveBindStartInput, CarveBindUndo } from './carve-bind-together.decision';
import { programmedVerdict } from './program-region.verdict';

export const BIND_WORKFLOW = 'bind';

/** What a bind starts with: everything checked before it started (visibility, provider, traits, quota). */
export interface BindStart {
  readonly arqUuid: string;
  readonly projectId: string;
  readonly bindId: string;
  readonly binding: Omit<ArqBinding, 'bindId'>;
  /** Capacity the device charges against the project's quota while bound (empty: none). */
  readonly capacity: Readonly<Record<string, number>>;
  readonly program: BindProgram | null;
  /** The provider is room to carve a partition (docs/partitions.md): the bind carves one first. Null: it binds what exists. */
  readonly carve?: { readonly profile: string } | null;
  /**
   * A carving bind's steps that need no outside party are decided together
   * (docs/workflows.md, "Decided together"): its start with the capacity
   * charge and the slices set aside, and its claim with the bound, one
   * append each. Set only where the store appends to several streams at
   * once; absent on binds started before, which run the steps one by one.
   */
  readonly decidedTogether?: boolean;
}

/** A bind whose profile names a bitstream: the steps that program see its program. */
type ProgrammingBind = BindStart & { readonly program: BindProgram };

const programs = (data: BindStart): data is ProgrammingBind => data.program !== null;
/** A bind that carves its partition first (`carve` is absent on binds started before partitions: those carve nothing). */
type CarvingBind = BindStart & { readonly carve: { readonly profile: string } };
const carves = (data: BindStart): data is CarvingBind => (data.carve ?? null) !== null;
/** Decided together only with nothing to program: a bind that programs is bound after its program steps, not with its claim. */
const carvesTogether = (data: BindStart): data is CarvingBind => carves(data) && data.decidedTogether === true && data.program === null;
const carvesApart = (data: BindStart): data is CarvingBind => carves(data) && !carvesTogether(data);

/** The claim step's evidence: what the device gave this bind. */
export interface ClaimEvidence {
  readonly attachHandle: BoundAttachHandle;
}

/** The carve job's evidence: the partition the agent made. */
export interface CarveEvidence {
  readonly handle: string;
  readonly start: number;
  readonly slices: number;
}

/** The evidence the bind's steps read, by step. */
export type BindEvidence = {
  /** A bind that carves together: the slices its start set aside. */
  readonly 'start-bind': ReservedCarve;
  readonly 'claim-handle': ClaimEvidence;
  readonly 'reserve-slices': ReservedCarve;
  readonly 'carve-partition': CarveEvidence;
};

/** The partition a carve bind claims once carved: where its agent carved it. */
export interface CarvedPartitionClaim {
  readonly hostname: string;
  readonly deviceUuid: string;
  readonly arqUuid: string;
  readonly bindId: string;
  /** Absent in binds started before claims carried the project. */
  readonly projectId?: string;
  readonly reserved: ReservedCarve;
  readonly carved: CarveEvidence;
}

/** The commands the bind sends, each with its data (`BindWorkflowCommands` serves each type). */
export type BindCommand =
  | WorkflowCommand<'allocation.StartBind', { readonly uuid: string; readonly bindId: string; readonly binding: Omit<ArqBinding, 'bindId'> }>
  | WorkflowCommand<'allocation.FailBind', { readonly uuid: string; readonly bindId: string } & Failure>
  | WorkflowCommand<'allocation.CompleteBind', { readonly uuid: string; readonly bindId: string; readonly attachHandle: BoundAttachHandle }>
  | WorkflowCommand<'quota.Reserve', ReserveQuotaCommand['input']>
  | WorkflowCommand<'quota.Release', ReleaseQuotaCommand['input']>
  | WorkflowCommand<'inventory.ClaimAttachHandle', { readonly deviceUuid: string; readonly deployableUuid: string; readonly arqUuid: string; readonly bindId: string; readonly projectId?: string }>
  | WorkflowCommand<'inventory.ReleaseAttachHandle', ReleaseAttachHandleCommand['input']>
  | WorkflowCommand<'inventory.ReserveCarve', ReserveCarveCommand['input']>
  | WorkflowCommand<'inventory.ReleaseCarve', ReleaseCarveCommand['input']>
  | WorkflowCommand<'inventory.ClaimCarvedPartition', CarvedPartitionClaim>
  | WorkflowCommand<'allocation.StartCarveBind', CarveBindStartInput>
  | WorkflowCommand<'allocation.UndoCarveBindStart', Omit<CarveBindUndo, 'at'>>
  | WorkflowCommand<'allocation.ClaimCarvedAndBind', CarvedPartitionClaim>;

const command = commandsOf<BindCommand>();

/** Why the bind stopped, as its BindFailed records it: the failure's code, or ARQ.BIND_FAILED for a timeout or a cancel. */
const failureOf = (context: Pick<StepContext<BindStart>, 'failure'>): Failure => reportedFailure(context, { code: ArqErrorCodes.BIND_FAILED, reason: 'the bind stopped' });

/**
 * Steps 6–10 of the ten-step workflow (docs/workflows.md), for one
 * accelerator request. The request was created with its unit of quota (step
 * 6); the bind then records its start, charges the device's capacity,
 * carves a partition when its provider is room to carve one (slices set
 * aside on the device's stream, then the agent's carve job), claims an
 * attach handle (7), programs the region when the profile names a
 * bitstream (8), has the agent verify the function answers (10, before Nova
 * hears of it: once told, Nova boots the instance), and marks the request
 * bound, which tells Nova (9). Whatever fails, the steps done are undone
 * newest first, and the request ends BindFailed — Nova hears `failed`.
 */
export const bindWorkflow = defineStepWorkflow<BindStart, BindCommand, BindEvidence>({
  name: BIND_WORKFLOW,
  routes: [jobResultRoute(BIND_WORKFLOW)],
  start: (input) => (input.kind === 'start' ? (input.data as BindStart) : undefined),
  steps: [
    {
      name: 'start-bind',
      do: ({ data }) =>
        carvesTogether(data)
          ? command('allocation.StartCarveBind', { uuid: data.arqUuid, bindId: data.bindId, binding: data.binding, projectId: data.projectId, capacity: data.capacity })
          : command('allocation.StartBind', { uuid: data.arqUuid, bindId: data.bindId, binding: data.binding }),
      compensate: (context) => {
        const { data } = context;
        return carvesTogether(data)
          ? command('allocation.UndoCarveBindStart', { arqUuid: data.arqUuid, bindId: data.bindId, deviceUuid: data.binding.deviceUuid, projectId: data.projectId, failure: failureOf(context) })
          : command('allocation.FailBind', { uuid: data.arqUuid, bindId: data.bindId, ...failureOf(context) });
      },
      timeoutMs: 30_000,
      retry: { maxAttempts: 3 },
    },
    {
      name: 'charge-capacity',
      // A bind that carves together charged it in its start.
      skip: ({ data }) => Object.keys(data.capacity).length === 0 || carvesTogether(data),
      do: ({ data }) =>
        command('quota.Reserve', { project: data.projectId, consumers: [{ consumerId: capacityConsumer(data.arqUuid), resources: data.capacity }] }),
      compensate: ({ data }) => command('quota.Release', { project: data.projectId, consumerIds: [capacityConsumer(data.arqUuid)] }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 1 },
    },
    stepWhen(carvesApart, {
      name: 'reserve-slices',
      do: ({ data }) =>
        command('inventory.ReserveCarve', {
          hostname: data.binding.hostname,
          deviceUuid: data.binding.deviceUuid,
          deployableUuid: data.binding.deployableUuid,
          bindId: data.bindId,
          arqUuid: data.arqUuid,
        }),
      compensate: ({ data }) => command('inventory.ReleaseCarve', { deviceUuid: data.binding.deviceUuid, bindId: data.bindId }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 1 },
    }),
    stepWhen(carves, {
      name: 'carve-partition',
      do: ({ data, evidence }) => ({
        kind: 'job',
        job: {
          hostname: data.binding.hostname,
          kind: 'carve',
          params: carveParams(data, reservedOf(data, evidence)),
          project: data.projectId,
        },
      }),
      // What was carved is destroyed: its slices go back to the device, never stranded.
      compensate: ({ data, evidence }) => ({
        kind: 'job',
        job: {
          hostname: data.binding.hostname,
          kind: 'destroy',
          params: { deviceUuid: data.binding.deviceUuid, pciAddress: reservedOf(data, evidence).pciAddress, handle: evidence['carve-partition'].handle, reason: 'compensation' },
          project: data.projectId,
        },
      }),
      timeoutMs: 120_000,
      // A second carve of the same slices would find them taken: a carve that fails is given up, and its bind undone.
      retry: { maxAttempts: 1 },
    }),
    {
      name: 'claim-handle',
      do: ({ data, evidence }) =>
        carves(data)
          ? command(carvesTogether(data) ? 'allocation.ClaimCarvedAndBind' : 'inventory.ClaimCarvedPartition', {
              hostname: data.binding.hostname,
              deviceUuid: data.binding.deviceUuid,
              arqUuid: data.arqUuid,
              bindId: data.bindId,
              projectId: data.projectId,
              reserved: reservedOf(data, evidence),
              carved: evidence['carve-partition'],
            })
          : command('inventory.ClaimAttachHandle', {
          deviceUuid: data.binding.deviceUuid,
          deployableUuid: data.binding.deployableUuid,
          arqUuid: data.arqUuid,
          bindId: data.bindId,
          projectId: data.projectId,
        }),
      compensate: ({ data }) => command('inventory.ReleaseAttachHandle', { deviceUuid: data.binding.deviceUuid, arqUuid: data.arqUuid, bindId: data.bindId }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 1 },
    },
    stepWhen(programs, {
      name: 'program-region',
      do: ({ data, evidence }) => programJob(data, data.program, evidence['claim-handle']),
      doneWhen: (input, { attempt, data }) => programmedVerdict(BIND_WORKFLOW, input, attempt, data.program.expectedFunctionId),
      // The region goes back to what it held; when nothing is known to restore, the function stays loaded, unclaimed.
      compensate: ({ data, evidence }) => (data.program.previous ? programJob(data, data.program.previous, evidence['claim-handle']) : undefined),
      timeoutMs: 600_000,
      retry: { maxAttempts: 2 },
    }),
    stepWhen(programs, {
      name: 'verify-access',
      do: ({ data }) => ({
        kind: 'job',
        job: {
          hostname: data.binding.hostname,
          kind: 'probe',
          params: { deviceUuid: data.binding.deviceUuid, pciAddress: data.program.pciAddress, instanceUuid: data.binding.instanceUuid },
          project: data.projectId,
        },
      }),
      timeoutMs: 60_000,
      retry: { maxAttempts: 2 },
    }),
    {
      name: 'mark-bound',
      // A bind that carves together was marked bound with its claim.
      skip: ({ data }) => carvesTogether(data),
      do: ({ data, evidence }) => command('allocation.CompleteBind', { uuid: data.arqUuid, bindId: data.bindId, attachHandle: evidence['claim-handle'].attachHandle }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 3 },
    },
  ],
});

function claimedRegion(claim: ClaimEvidence | undefined, deviceAddress: string): { readonly pciAddress: string; readonly region?: string } {
  const info = claim?.attachHandle.info;
  if (!info?.domain || !info.bus || !info.device || info.function === undefined) return { pciAddress: deviceAddress };
  const pciAddress = `${info.domain}:${info.bus}:${info.device}.${info.function}`;
  return info.region_id ? { pciAddress, region: info.region_id } : { pciAddress };
}

/** The slices set aside for the carve: by the start, for a bind that carves together, else by their own step. */
const reservedOf = (data: BindStart, evidence: BindEvidence): ReservedCarve => (carvesTogether(data) ? evidence['start-bind'] : evidence['reserve-slices']);

function carveParams(data: BindStart, reserved: ReservedCarve): Record<string, unknown> {
  const { pciAddress, profile, profileId, start } = reserved;
  return { deviceUuid: data.binding.deviceUuid, pciAddress, profile, ...(profileId === null ? {} : { profileId }), start, bindId: data.bindId };
}

/**
 * The program job loads the region of the deployable the bind claimed
 * (docs/workflows.md, "Regions one by one"): at the claimed handle's
 * address (a VF serves one region of its card) and, for a region
 * partition, naming the region (`region_id`). A bind claimed before its
 * evidence carried a handle programs through the device's address.
 */
function programJob(data: ProgrammingBind, image: ProgramImage, claim: ClaimEvidence | undefined): StepAction<BindCommand> {
  return {
    kind: 'job',
    job: {
      hostname: data.binding.hostname,
      kind: 'program',
      params: {
        deviceUuid: data.binding.deviceUuid,
        deployableUuid: data.binding.deployableUuid,
        ...claimedRegion(claim, data.program.pciAddress),
        image: { url: image.url, sha256: image.sha256 },
        bitstreamId: image.bitstreamId,
      },
      // The region is loaded for the request's project: provenance names it.
      project: data.projectId,
    },
  };
}
