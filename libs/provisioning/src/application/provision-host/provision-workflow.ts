import { commandsOf, defineStepWorkflow, type Failure, jobResultRoute, reportedFailure, type StepAction, type WorkflowCommand } from '@ledger/workflows';
import type { RegisteredShell } from '../../domain/shell-check';

export const PROVISION_WORKFLOW = 'provision';

/** A shell image as a program job names it: the agent fetches `url` and checks `sha256`. */
export interface ShellImage {
  readonly bitstreamId: string;
  readonly sha256: string;
  readonly url: string;
}

/** What a provisioning starts with: everything checked before it started (host, FPGA, bitstream). */
export interface ProvisionStart {
  readonly provisionId: string;
  readonly hostname: string;
  /** The FPGA whose shell is loaded and whose physical function gets the VFs. */
  readonly device: { readonly uuid: string; readonly pciAddress: string };
  readonly shell: ShellImage & RegisteredShell;
  /** The registered shell the device held when the provisioning was planned (its last ShellProgrammed); null when none is known. */
  readonly previousShell: ShellImage | null;
  readonly vfs: number;
}

/** The host stream's provisioning a command acts on. */
type HostProvisioning = { readonly hostname: string; readonly provisionId: string };

/** The commands the provisioning sends, each with its data (`ProvisionWorkflowCommands` serves each type). */
export type ProvisionCommand =
  | WorkflowCommand<'inventory.StartHostProvisioning', HostProvisioning>
  | WorkflowCommand<'inventory.CompleteHostProvisioning', HostProvisioning>
  | WorkflowCommand<'inventory.FailHostProvisioning', HostProvisioning & Failure>
  | WorkflowCommand<'provisioning.AwaitPlacementSync', { readonly hostname: string }>
  /** `evidence`: the program-shell job's, as the agent reported it (checked, not trusted). */
  | WorkflowCommand<'provisioning.VerifyShell', { readonly expected: RegisteredShell; readonly evidence: unknown }>;

/** The evidence the provisioning's steps read, by step: the agents' job evidence, as they reported it. */
export type ProvisionEvidence = {
  readonly 'program-shell': unknown;
  readonly 'configure-vfs': { readonly previousNumVfs?: unknown } | undefined;
};

const command = commandsOf<ProvisionCommand>();
const job = (data: ProvisionStart, kind: string, params: Readonly<Record<string, unknown>>, timeoutSeconds?: number): StepAction<ProvisionCommand> => ({
  kind: 'job',
  job: { hostname: data.hostname, kind, params, ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }) },
});

/** How long the agent-ready probe waits in the host's queue for its agent: a host that reboots into service comes up in minutes. */
const BOOT_SECONDS = 600;
const onDevice = (data: ProvisionStart) => ({ deviceUuid: data.device.uuid, pciAddress: data.device.pciAddress });

const shellJob = (data: ProvisionStart, image: ShellImage): StepAction<ProvisionCommand> =>
  job(data, 'program', { ...onDevice(data), target: 'shell', image: { url: image.url, sha256: image.sha256 }, bitstreamId: image.bitstreamId });

/**
 * Steps 1–5 of the ten-step workflow (docs/workflows.md, "The provision
 * workflow"), for one host an operator brings into service: the host
 * stream records the provisioning (1), the agent proves it answers jobs
 * (2), reports its devices and Placement catches up (3), the FPGA gets the
 * registered shell, checked against the registry (4), and its physical
 * function the VFs asked for (5); then the host is provisioned. Whatever
 * fails, the steps done are undone newest first and the host is marked
 * failed — it stays out of service.
 */
export const provisionWorkflow = defineStepWorkflow<ProvisionStart, ProvisionCommand, ProvisionEvidence>({
  name: PROVISION_WORKFLOW,
  routes: [jobResultRoute(PROVISION_WORKFLOW)],
  start: (input) => (input.kind === 'start' ? (input.data as ProvisionStart) : undefined),
  steps: [
    {
      name: 'register-host',
      do: ({ data }) => command('inventory.StartHostProvisioning', { hostname: data.hostname, provisionId: data.provisionId }),
      // Only what this workflow did: the agent registered the host, the workflow only began its provisioning; the host stays known, out of service.
      compensate: (context) =>
        command('inventory.FailHostProvisioning', {
          hostname: context.data.hostname,
          provisionId: context.data.provisionId,
          ...reportedFailure(context, { code: 'PROVISION.FAILED', reason: 'the provisioning stopped' }),
        }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 3 },
    },
    {
      // A job waits in the host's queue while the agent boots; a host whose agent never sent a heartbeat is refused (JOB.AGENT_UNAVAILABLE).
      name: 'agent-ready',
      do: ({ data }) => job(data, 'probe', onDevice(data), BOOT_SECONDS),
      // The job's own timeout (JOB.TIMED_OUT) ends an attempt; this one only covers a result that never comes back.
      timeoutMs: (BOOT_SECONDS + 30) * 1000,
      retry: { maxAttempts: 3 },
    },
    {
      name: 'report-devices',
      do: ({ data }) => job(data, 'discover', {}),
      timeoutMs: 120_000,
      retry: { maxAttempts: 2 },
    },
    {
      name: 'sync-placement',
      do: ({ data }) => command('provisioning.AwaitPlacementSync', { hostname: data.hostname }),
      timeoutMs: 120_000,
      retry: { maxAttempts: 3 },
    },
    {
      name: 'program-shell',
      do: ({ data }) => shellJob(data, data.shell),
      // Back to the shell the device held; with none known to restore, the new shell stays loaded (the host is out of service anyway).
      compensate: ({ data }) => (data.previousShell ? shellJob(data, data.previousShell) : undefined),
      timeoutMs: 600_000,
      retry: { maxAttempts: 2 },
    },
    {
      name: 'verify-shell',
      do: ({ data, evidence }) =>
        command('provisioning.VerifyShell', {
          expected: { bitstreamId: data.shell.bitstreamId, sha256: data.shell.sha256, interfaceId: data.shell.interfaceId },
          evidence: evidence['program-shell'],
        }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 1 },
    },
    {
      name: 'configure-vfs',
      do: ({ data }) => job(data, 'configure-vfs', { ...onDevice(data), numVfs: data.vfs }),
      compensate: ({ data, evidence }) => {
        const previous = evidence['configure-vfs']?.previousNumVfs;
        return typeof previous === 'number' ? job(data, 'configure-vfs', { ...onDevice(data), numVfs: previous }) : undefined;
      },
      timeoutMs: 120_000,
      retry: { maxAttempts: 2 },
    },
    {
      name: 'mark-provisioned',
      do: ({ data }) => command('inventory.CompleteHostProvisioning', { hostname: data.hostname, provisionId: data.provisionId }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 3 },
    },
  ],
});
