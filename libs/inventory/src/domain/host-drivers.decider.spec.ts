import { deciderSpec } from '@ledger/eventstore/testing';
import { hostDriversDecider, type RecordDriverOutcome } from './host-drivers.decider';
import type { HostDriverEvent } from './inventory.events';

const spec = deciderSpec(hostDriversDecider);
const JOB = '0196b3c2-0000-7000-8000-0000000000aa';
const OTHER_JOB = '0196b3c2-0000-7000-8000-0000000000bb';
const recap = { ok: 5, changed: 2, failed: 0, unreachable: 0, skipped: 1 };
const outcome: RecordDriverOutcome = {
  type: 'RecordDriverOutcome',
  hostname: 'compute-1',
  jobId: JOB.toUpperCase(),
  driver: 'nvidia-gpu',
  operation: 'install',
  outcome: 'completed',
  version: '550.54.15',
  recap,
  reason: null,
};
const installed: HostDriverEvent = {
  type: 'inventory.DriverInstalled',
  data: { hostname: 'compute-1', driver: 'nvidia-gpu', version: '550.54.15', recap, jobId: JOB },
};

describe('hostDriversDecider', () => {
  it('records an install or update as installed, an uninstall as uninstalled', () => {
    spec.given([]).when(outcome).then([installed]);
    spec.given([]).when({ ...outcome, operation: 'update' }).then([installed]);
    spec.given([]).when({ ...outcome, operation: 'uninstall' }).then([
      { type: 'inventory.DriverUninstalled', data: { hostname: 'compute-1', driver: 'nvidia-gpu', recap, jobId: JOB } },
    ]);
  });

  it('records a failure with its operation and reason, with or without a recap', () => {
    spec.given([]).when({ ...outcome, operation: 'update', outcome: 'failed', recap: null, reason: 'JOB.TIMED_OUT: no result within 1800 s' }).then([
      {
        type: 'inventory.DriverFailed',
        data: { hostname: 'compute-1', driver: 'nvidia-gpu', operation: 'update', recap: null, reason: 'JOB.TIMED_OUT: no result within 1800 s', jobId: JOB },
      },
    ]);
    spec.given([]).when({ ...outcome, outcome: 'failed', reason: null }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'reason' });
  });

  it('records one fact per job: a repeated outcome appends nothing', () => {
    spec.given([installed]).when(outcome).then([]);
    spec.given([installed]).when({ ...outcome, outcome: 'failed', reason: 'again' }).then([]);
    spec.given([installed]).when({ ...outcome, jobId: OTHER_JOB }).then([{ ...installed, data: { ...installed.data, jobId: OTHER_JOB } }]);
  });

  it('refuses a malformed job id, driver name or operation', () => {
    spec.given([]).when({ ...outcome, jobId: 'job-1' }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'jobId' });
    spec.given([]).when({ ...outcome, driver: 'NVIDIA' }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'driver' });
    spec.given([]).when({ ...outcome, operation: 'reinstall' as never }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'operation' });
  });
});
