import { InvalidArgumentError } from 'commander';
import { parseTimeoutSeconds, requestJob } from './job-command';

describe('job commands', () => {
  it('takes --timeout as whole seconds the ledger accepts, else a usage error', () => {
    expect(parseTimeoutSeconds('1')).toBe(1);
    expect(parseTimeoutSeconds('86400')).toBe(86_400);
    for (const bad of ['0', '86401', '-5', '1.5', '10s', '', '999999']) {
      expect(() => parseTimeoutSeconds(bad)).toThrow(InvalidArgumentError);
    }
  });

  it('requests the job on the host, with the timeout only when given', async () => {
    const sent: unknown[] = [];
    const client = {
      request: async <T>(method: string, path: string, body?: unknown) => {
        sent.push({ method, path, body });
        return { jobId: 'j1', position: 3 } as T;
      },
    };
    await expect(requestJob(client, 'compute 1', 'install-driver', { driver: 'simulated' })).resolves.toEqual({
      jobId: 'j1',
      position: 3,
      hostname: 'compute 1',
      kind: 'install-driver',
    });
    await requestJob(client, 'compute-1', 'discover', {}, 30);
    expect(sent).toEqual([
      { method: 'POST', path: '/api/v1/hosts/compute%201/jobs', body: { kind: 'install-driver', params: { driver: 'simulated' } } },
      { method: 'POST', path: '/api/v1/hosts/compute-1/jobs', body: { kind: 'discover', params: {}, timeoutSeconds: 30 } },
    ]);
  });
});
