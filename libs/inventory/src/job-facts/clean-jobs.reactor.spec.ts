import type { RecordedEvent } from '@ledger/eventstore';
import { ConflictError, SYSTEM_ACTOR } from '@ledger/kernel';
import { cleanJobsReactor, type CleanJobsPorts } from './clean-jobs.reactor';
import { cleanJobId } from './clean-outcome-of-job';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const HANDLE = '1a2b3c4d-0000-5000-8000-000000000001';
const started = {
  id: 'event-1',
  type: 'inventory.DeviceCleaningStarted',
  data: { deviceUuid: DEVICE, attempt: 2, handleUuids: [HANDLE], cause: 'retry', arqUuids: [] },
  metadata: { actor: SYSTEM_ACTOR, correlationId: 'corr-1' },
} as unknown as RecordedEvent;
/** The runtime's first delivery of the event. */
const delivery = { attempt: 1, signal: new AbortController().signal };
const target = { hostname: 'compute-1', pciAddress: '0000:3b:00.0', handles: [{ uuid: HANDLE, type: 'PCI', address: '0000:3b:00.0' }] };

function ports(requestJob: CleanJobsPorts['requestJob'], found = true) {
  const failed: unknown[] = [];
  const reactor = cleanJobsReactor({
    cleanTarget: async () => (found ? target : undefined),
    requestJob,
    recordCleanFailed: async (command) => void failed.push(command),
    now: () => new Date('2026-03-01T10:00:00.000Z'),
  });
  return { reactor, failed };
}

describe('cleanJobsReactor', () => {
  it("asks the device's agent for the attempt's clean job, by a job id the attempt names", async () => {
    const asked: unknown[] = [];
    const { reactor, failed } = ports(async (request, context) => void asked.push({ request, context }));
    await reactor.react(started, delivery);
    expect(asked).toEqual([
      {
        request: { hostname: 'compute-1', kind: 'clean', jobId: cleanJobId(DEVICE, 2), params: { deviceUuid: DEVICE, pciAddress: '0000:3b:00.0', attempt: 2, handles: target.handles } },
        context: { actor: SYSTEM_ACTOR, correlationId: 'corr-1', causationId: 'event-1' },
      },
    ]);
    expect(failed).toEqual([]);
  });

  it('records the attempt clean-failed when the job is refused (the agent is unavailable) or the device is gone', async () => {
    const refused = ports(async () => {
      throw new ConflictError('JOB.AGENT_UNAVAILABLE', 'the agent of compute-1 is lost');
    });
    await refused.reactor.react(started, delivery);
    expect(refused.failed).toEqual([
      expect.objectContaining({ type: 'RecordCleanFailed', attempt: 2, code: 'JOB.AGENT_UNAVAILABLE', ran: [], failedAt: '2026-03-01T10:00:00.000Z' }),
    ]);
    const gone = ports(async () => undefined, false);
    await gone.reactor.react(started, delivery);
    expect(gone.failed).toEqual([expect.objectContaining({ code: 'INVENTORY.DEVICE_NOT_FOUND' })]);
  });

  it('leaves a fault of the store or the code to the runtime, which retries', async () => {
    const { reactor, failed } = ports(async () => {
      throw new Error('disk I/O error');
    });
    await expect(reactor.react(started, delivery)).rejects.toThrow('disk I/O error');
    expect(failed).toEqual([]);
  });
});
