import type { DeviceHealthCause, ReportedDevice } from '@ledger/inventory';

/** What a driver observes about one of its devices at a heartbeat (docs/agent-protocol.md). */
export interface DeviceHealthSample {
  readonly pciAddress: string;
  readonly health: 'ok' | 'degraded' | 'failed';
  /** Short text when not ok ("ECC double-bit errors", "Xid 79"). */
  readonly reason: string | null;
  /** What made it unhealthy, as data the ledger's health policy matches (absent: not said). */
  readonly cause?: DeviceHealthCause;
  /** Numeric readings, last value wins in the ledger's live view (utilizationPct, memoryUsedGiB, temperatureC, powerW…). */
  readonly telemetry: Readonly<Record<string, number>>;
}

/** What a job hands a driver operation: the job's params (docs/agent-protocol.md, "Jobs"). */
export type JobParams = Readonly<Record<string, unknown>>;

/** What a driver operation proves it did, recorded with the job's outcome. */
export type JobEvidence = Readonly<Record<string, unknown>>;

/**
 * One kind of accelerator on a host. Every driver discovers; the operations
 * a device kind does not support are absent, and a job asking for one fails
 * with JOB.UNSUPPORTED. Operations must leave the device in a known state:
 * on failure they restore what they changed where the hardware allows
 * (e.g. the previous FPGA function) and throw a DriverOperationError saying
 * what state the device is in.
 */
export interface AcceleratorDriver {
  /** Stable name: `nvidia-gpu`, `intel-fpga`, `xilinx-fpga`, `intel-qat`, `sriov-nic`, `generic-pci`, `simulated`. */
  readonly name: string;
  /** The devices of this kind on the host, in the report's shape. Unreadable entries are skipped with a warning, never thrown. */
  discover(): Promise<ReportedDevice[]>;
  /** Health and telemetry of the devices it discovered. */
  health(): Promise<DeviceHealthSample[]>;
  /** Loads `params.image` into a PR region, or into the shell when `params.target` is `shell` (drivers that cannot, refuse). */
  program?(params: JobParams): Promise<JobEvidence>;
  configureVfs?(params: JobParams): Promise<JobEvidence>;
  createMdev?(params: JobParams): Promise<JobEvidence>;
  removeMdev?(params: JobParams): Promise<JobEvidence>;
  /**
   * Carves one partition (`params.profile` at slice `params.start`: a MIG GPU
   * instance and its compute instance, an mdev, …) and answers with
   * `{handle, profile, start, slices, gpuInstanceId?, computeInstanceId?}`;
   * a carve that fails leaves nothing carved (docs/partitions.md).
   */
  carve?(params: JobParams): Promise<JobEvidence>;
  /** Destroys the partition `params.handle` (MIG: its compute instances, then its GPU instance); a handle already gone is done. */
  destroy?(params: JobParams): Promise<JobEvidence>;
  attach?(params: JobParams): Promise<JobEvidence>;
  detach?(params: JobParams): Promise<JobEvidence>;
  /**
   * Cleans what a tenant released (`params.handles`): resets each handle's
   * function and scrubs what the device kind allows. Evidence `{ran: [{step, result}]}`;
   * a failure carries the steps that ran in its evidence.
   */
  clean?(params: JobParams): Promise<JobEvidence>;
  /** Is the function reachable (and, for an instance, handed over)? Reads only; never changes the device. */
  probe?(params: JobParams): Promise<JobEvidence>;
  /** Ansible playbooks that install and uninstall the driver's host software (absolute paths, shipped with the agent). */
  readonly playbooks: { readonly install: string; readonly uninstall: string };
}

/** A driver operation failed; `deviceState` says what the device was left as ("previous function restored", "unchanged"…). */
export class DriverOperationError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly deviceState: string,
    readonly evidence: JobEvidence = {},
  ) {
    super(message);
    this.name = 'DriverOperationError';
  }
}
