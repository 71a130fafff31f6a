import { normalizePciAddress } from '../../discovery/pci-address';
import type { RunCommand } from '../run-command';
import { describeCommandFailure } from '../run-command';

/** The columns asked of nvidia-smi, in order; the CSV is read by these names. */
export const NVIDIA_SMI_FIELDS = [
  'pci.bus_id',
  'uuid',
  'memory.total',
  'mig.mode.current',
  'utilization.gpu',
  'temperature.gpu',
  'ecc.errors.uncorrected.volatile.total',
  'memory.used',
  'power.draw',
  'remapped_rows.pending',
  'remapped_rows.failure',
] as const;

export const NVIDIA_SMI_ARGS = [`--query-gpu=${NVIDIA_SMI_FIELDS.join(',')}`, '--format=csv,noheader,nounits'];

/** One GPU as nvidia-smi sees it; a reading it cannot give (`[N/A]`, `[Not Supported]`) is null. */
export interface NvidiaSmiGpu {
  readonly pciAddress: string;
  readonly uuid: string | null;
  readonly memoryTotalMiB: number | null;
  /** `Enabled` / `Disabled`; null on GPUs without MIG. */
  readonly migMode: string | null;
  readonly utilizationPct: number | null;
  readonly temperatureC: number | null;
  readonly eccUncorrected: number | null;
  readonly memoryUsedMiB: number | null;
  readonly powerW: number | null;
  /** HBM row remapping (A100 and later): a remap waits for a reset; a remap failed (the memory cannot be repaired in place). Null where the GPU has none. */
  readonly remapPending: boolean | null;
  readonly remapFailed: boolean | null;
}

export type NvidiaSmiReading =
  | { readonly status: 'absent' }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'ok'; readonly gpus: ReadonlyMap<string, NvidiaSmiGpu> };

/** How one nvidia-smi run ended; `output` on failure is what it printed (some listings say "No … found" and exit non-zero). */
export type NvidiaSmiRun =
  | { readonly status: 'absent' }
  | { readonly status: 'failed'; readonly reason: string; readonly output: string }
  | { readonly status: 'ok'; readonly stdout: string };

/** The one way the agent runs nvidia-smi. No binary is `absent` (a host without NVIDIA's driver stack), not a failure. */
export async function runNvidiaSmi(runCommand: RunCommand, path: string, args: readonly string[], timeoutMs: number): Promise<NvidiaSmiRun> {
  const result = await runCommand(path, args, { timeoutMs });
  if (result.spawnError === 'ENOENT') return { status: 'absent' };
  if (result.exitCode !== 0) return { status: 'failed', reason: describeCommandFailure('nvidia-smi', result), output: `${result.stdout}\n${result.stderr}` };
  return { status: 'ok', stdout: result.stdout };
}

/** Runs the query. */
export async function readNvidiaSmi(runCommand: RunCommand, path: string, timeoutMs: number): Promise<NvidiaSmiReading> {
  const run = await runNvidiaSmi(runCommand, path, NVIDIA_SMI_ARGS, timeoutMs);
  if (run.status !== 'ok') return run.status === 'absent' ? run : { status: 'failed', reason: run.reason };
  return { status: 'ok', gpus: parseNvidiaSmiCsv(run.stdout) };
}

/** Lines of `--format=csv,noheader,nounits`; a line that is not one GPU's is ignored. */
export function parseNvidiaSmiCsv(csv: string): Map<string, NvidiaSmiGpu> {
  const gpus = new Map<string, NvidiaSmiGpu>();
  for (const line of csv.split('\n')) {
    const cells = line.split(',').map((cell) => cell.trim());
    if (cells.length !== NVIDIA_SMI_FIELDS.length) continue;
    const value = (field: (typeof NVIDIA_SMI_FIELDS)[number]) => cells[NVIDIA_SMI_FIELDS.indexOf(field)];
    const pciAddress = normalizePciAddress(value('pci.bus_id'));
    if (pciAddress === undefined) continue;
    gpus.set(pciAddress, {
      pciAddress,
      uuid: text(value('uuid')),
      memoryTotalMiB: number(value('memory.total')),
      migMode: text(value('mig.mode.current')),
      utilizationPct: number(value('utilization.gpu')),
      temperatureC: number(value('temperature.gpu')),
      eccUncorrected: number(value('ecc.errors.uncorrected.volatile.total')),
      memoryUsedMiB: number(value('memory.used')),
      powerW: number(value('power.draw')),
      remapPending: yesNo(value('remapped_rows.pending')),
      remapFailed: yesNo(value('remapped_rows.failure')),
    });
  }
  return gpus;
}

const unavailable = (cell: string) => cell === '' || cell.startsWith('[');
const text = (cell: string): string | null => (unavailable(cell) ? null : cell);
const yesNo = (cell: string): boolean | null => (unavailable(cell) ? null : /^yes$/i.test(cell));
const number = (cell: string): number | null => (unavailable(cell) || !Number.isFinite(Number(cell)) ? null : Number(cell));
