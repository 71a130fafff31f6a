import { ConflictError, isUuid, LedgerError, ValidationError } from '@ledger/kernel';
import { JobRequestPort, type WorkflowJobRequest } from './job-request-port';
import { commandsOf } from '../domain/steps/step-definition';
import type { WorkflowCommand } from '../domain/workflow-output';
import { mergeCommandHandlers, RegistryCommandPort, typedCommandHandlers, type WorkflowCommandDispatch } from './registry-command-port';
import { workflowJobId } from './workflow-job-id';

const dispatch = <Payload>(key: string, payload: Payload) => ({ id: `workflow-demo-o1/${key}`, workflow: 'demo', workflowId: 'o1', key, payload });

describe('RegistryCommandPort', () => {
  it('runs the handler of the command type as the workflow, correlated by its stream, and answers what it returned', async () => {
    const seen: unknown[] = [];
    const port = new RegistryCommandPort({
      'demo.Reserve': async (data, sent, context) => {
        seen.push({ data, id: sent.id, context });
        return { position: 7 };
      },
    });
    const answer = await port.send(dispatch('reserve/do/1', { type: 'demo.Reserve', data: { orderId: 'o1' } }) as WorkflowCommandDispatch);
    expect(answer).toEqual({ outcome: 'accepted', reply: { position: 7 } });
    expect(seen).toEqual([
      {
        data: { orderId: 'o1' },
        id: 'workflow-demo-o1/reserve/do/1',
        context: { actor: { user: 'workflow:demo', project: null, roles: ['system'] }, correlationId: 'workflow-demo-o1', causationId: 'workflow-demo-o1/reserve/do/1' },
      },
    ]);
  });

  it('answers a refusal (a LedgerError below 500) as rejected with its code, and throws anything else so the runtime sends again', async () => {
    const port = new RegistryCommandPort({
      'demo.Refused': () => Promise.reject(new ConflictError('QUOTA.EXCEEDED', 'no room')),
      'demo.Down': () => Promise.reject(new LedgerError('STORE.UNAVAILABLE', 503, 'down')),
      'demo.Broken': () => Promise.reject(new TypeError('bug')),
    });
    const send = (type: string) => port.send(dispatch('a/do/1', { type, data: {} }) as WorkflowCommandDispatch);
    expect(await send('demo.Refused')).toEqual({ outcome: 'rejected', error: { code: 'QUOTA.EXCEEDED', message: 'no room' } });
    await expect(send('demo.Down')).rejects.toThrow('down');
    await expect(send('demo.Broken')).rejects.toThrow('bug');
    await expect(send('demo.Unknown')).rejects.toThrow(/no handler for the workflow command demo.Unknown/);
  });

  describe('a workflow’s command union', () => {
    type OrderCommand = WorkflowCommand<'demo.Reserve', { readonly orderId: string }> | WorkflowCommand<'demo.Release', { readonly orderId: string; readonly why: string }>;
    const command = commandsOf<OrderCommand>();

    it('builds each command with its own data, and serves each type with a handler of that data', async () => {
      const seen: unknown[] = [];
      const port = new RegistryCommandPort(
        typedCommandHandlers<OrderCommand>({
          'demo.Reserve': async (data, context, sent) => seen.push([data.orderId, context.correlationId, sent.key]),
          'demo.Release': async (data) => seen.push([data.orderId, data.why]),
        }),
      );
      const action = command('demo.Release', { orderId: 'o1', why: 'gone' });
      expect(action).toEqual({ kind: 'command', command: { type: 'demo.Release', data: { orderId: 'o1', why: 'gone' } } });
      await port.send(dispatch('reserve/do/1', { type: 'demo.Reserve', data: { orderId: 'o1' } }));
      if (action.kind === 'command') await port.send(dispatch('reserve/compensate/1', action.command));
      expect(seen).toEqual([
        ['o1', 'workflow-demo-o1', 'reserve/do/1'],
        ['o1', 'gone'],
      ]);
    });

    it('makes a type left out, one the union lacks, or data of another shape a compile error', () => {
      const handle = async () => undefined;
      // @ts-expect-error demo.Release has no handler
      typedCommandHandlers<OrderCommand>({ 'demo.Reserve': handle });
      // @ts-expect-error demo.Bind is no command of the union
      typedCommandHandlers<OrderCommand>({ 'demo.Reserve': handle, 'demo.Release': handle, 'demo.Bind': handle });
      // @ts-expect-error demo.Reserve carries no `why`
      typedCommandHandlers<OrderCommand>({ 'demo.Reserve': async (data: { why: string }) => data.why, 'demo.Release': handle });
      // @ts-expect-error demo.Release needs its `why`
      expect(command('demo.Release', { orderId: 'o1' })).toMatchObject({ kind: 'command' });
    });
  });

  it('merges each context’s handlers, refusing a type served twice', () => {
    const handler = async () => undefined;
    expect(Object.keys(mergeCommandHandlers({ 'a.One': handler }, { 'b.Two': handler }))).toEqual(['a.One', 'b.Two']);
    expect(() => mergeCommandHandlers({ 'a.One': handler }, { 'a.One': handler })).toThrow(/two workflow command handlers for a.One/);
  });
});

describe('JobRequestPort', () => {
  const job = dispatch('program/do/1', { hostname: 'compute-1', kind: 'program', params: { orderId: 'o1' } });

  it('asks for a job whose id is derived from the dispatch id, with the origin its result routes back by', async () => {
    const requests: WorkflowJobRequest[] = [];
    const port = new JobRequestPort(async (request) => {
      requests.push(request);
    });
    const first = await port.request(job);
    await port.request(job);
    const jobId = workflowJobId(job.id);
    expect(isUuid(jobId)).toBe(true);
    expect(workflowJobId('workflow-demo-o1/program/do/2')).not.toBe(jobId);
    expect(first).toEqual({ outcome: 'accepted', reply: { jobId } });
    expect(requests.map((request) => request.jobId)).toEqual([jobId, jobId]);
    expect(requests[0]).toMatchObject({ hostname: 'compute-1', kind: 'program', origin: { workflow: 'demo', workflowId: 'o1', key: 'program/do/1' } });
  });

  it("passes the job's timeout when the workflow names one, and leaves the kind's default otherwise", async () => {
    const requests: WorkflowJobRequest[] = [];
    const port = new JobRequestPort(async (request) => {
      requests.push(request);
    });
    await port.request(dispatch('probe/do/1', { hostname: 'compute-1', kind: 'probe', params: {}, timeoutSeconds: 600 }));
    await port.request(job);
    expect(requests.map((request) => request.timeoutSeconds)).toEqual([600, undefined]);
    expect('timeoutSeconds' in requests[1]).toBe(false);
  });

  it('answers a refused job (no agent, bad params) as rejected', async () => {
    const port = new JobRequestPort(() => Promise.reject(new ValidationError('JOB.INVALID', 'bad params')));
    expect(await port.request(job)).toEqual({ outcome: 'rejected', error: { code: 'JOB.INVALID', message: 'bad params' } });
  });
});
