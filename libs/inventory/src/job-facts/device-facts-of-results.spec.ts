import { AggregateCache, type RecordedEvent } from '@ledger/eventstore';
import { JOB_KINDS, type JobCompleted, type JobFailed, type JobKind, type JobRequested } from '@ledger/jobs';
import { deviceFactOf, deviceFactsOfJobResults } from './device-facts-of-results';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const JOB = '0196b3c2-0000-7000-8000-000000000001';

const requestedOf = (kind: JobKind): RecordedEvent & JobRequested =>
  ({
    id: 'e-1',
    position: 1,
    stream: `job-${JOB}`,
    version: 1,
    recordedAt: '2026-03-01T10:00:00.000Z',
    type: 'jobs.JobRequested',
    data: { jobId: JOB, hostname: 'compute-1', kind, params: { deviceUuid: DEVICE, pciAddress: '0000:3b:00.0' }, timeoutSeconds: 60, requestedAt: '2026-03-01T10:00:00.000Z' },
    metadata: { actor: { user: 'ops', project: 'p-ops', roles: ['admin'] }, correlationId: 'req-1', causationId: 'req-1', schemaVersion: 1 },
  }) as unknown as RecordedEvent & JobRequested;

const results: readonly (JobCompleted | JobFailed)[] = [
  { type: 'jobs.JobCompleted', data: { jobId: JOB, evidence: { numVfs: 4, functionId: 'ab'.repeat(16), handle: 'MIG-1' }, completedAt: '2026-03-01T10:01:00.000Z' } },
  { type: 'jobs.JobFailed', data: { jobId: JOB, code: 'X', reason: 'failed', evidence: {}, failedAt: '2026-03-01T10:01:00.000Z' } },
];

describe("deviceFactsOfJobResults: which jobs' results go with their device fact", () => {
  it('names a device participant for every kind that can have a device fact, so no fact of a kind it skips is left to the reactor alone', () => {
    const facts = deviceFactsOfJobResults(new AggregateCache());
    for (const kind of JOB_KINDS) {
      if (facts(requestedOf(kind)) !== undefined) continue;
      expect([kind, results.map((finished) => deviceFactOf(requestedOf(kind), finished))]).toEqual([kind, [undefined, undefined]]);
    }
  });

  it("records the fact on the device's stream as the job's requester asked it", () => {
    const target = deviceFactsOfJobResults(new AggregateCache())(requestedOf('configure-vfs'));
    expect(target?.participant).toMatchObject({ stream: `device-${DEVICE}`, context: { actor: { user: 'ops' }, correlationId: 'req-1' } });
  });
});
