import { CliError } from '../support/cli-error';
import { parseLimits } from './quota.command';
import { formatQuotaTable } from './quota-table';

const usageError = (run: () => unknown): CliError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    return error as CliError;
  }
  throw new Error('expected a usage error');
};

describe('ledgerctl quota', () => {
  it('turns RESOURCE=N and --unset into the limits of the PUT body', () => {
    expect(parseLimits(['FPGA=4', 'capacity:memoryGiB=160', 'VGPU=0'], ['PGPU'])).toEqual({
      FPGA: 4,
      'capacity:memoryGiB': 160,
      VGPU: 0,
      PGPU: null,
    });
    expect(parseLimits([], ['FPGA'])).toEqual({ FPGA: null });
  });

  it('leaves resource names to the ledger but refuses malformed usage with exit code 2', () => {
    expect(parseLimits(['whatever=1'], [])).toEqual({ whatever: 1 });
    expect(usageError(() => parseLimits(['FPGA'], [])).message).toContain('RESOURCE=N');
    usageError(() => parseLimits(['FPGA=-1'], []));
    usageError(() => parseLimits(['FPGA=1.5'], []));
    usageError(() => parseLimits(['FPGA=99999999999999999'], []));
    usageError(() => parseLimits(['FPGA=1', 'FPGA=2'], []));
    usageError(() => parseLimits(['FPGA=1'], ['FPGA']));
    expect(usageError(() => parseLimits([], ['FPGA=3'])).message).toContain('before --unset');
    expect(usageError(() => parseLimits([], [])).message).toContain('nothing to change');
  });

  it('prints a table of limits and usage, unlimited where no limit is set', () => {
    expect(formatQuotaTable({ project: 'p1', limits: { FPGA: 4, 'capacity:memoryGiB': 160 }, usage: { FPGA: 1, PGPU: 2 } })).toBe(
      [
        'project p1',
        'RESOURCE            LIMIT      IN USE',
        'FPGA                4          1',
        'PGPU                unlimited  2',
        'capacity:memoryGiB  160        0',
        '',
      ].join('\n'),
    );
    expect(formatQuotaTable({ project: 'p2', limits: {}, usage: {} })).toContain('no limits set');
  });
});
