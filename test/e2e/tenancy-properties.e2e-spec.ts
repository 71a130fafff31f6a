import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';
import { hostReportBody } from '../support/fleet';

const A = 'tenant-a';
const B = 'tenant-b';

describe('tenancy: no project learns about another', () => {
  let ledger: TestLedger;
  let fpgaRp: string;
  /** Nova as each project's tenant sends it: the member's own token, with the service role. */
  const novaOf = (project: string) => ledger.token({ user: `nova-${project}`, project, roles: ['member', 'service'] });

  beforeAll(async () => {
    ledger = await startTestLedger();
    const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
    const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 2) });
    expect(report.status).toBe(200);
    const deployables = await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', {
      token: ledger.adminToken,
      headers: { 'x-ledger-min-position': String(report.body.position) },
    });
    fpgaRp = deployables.body.items.find((d: any) => d.resourceClass === 'FPGA').rpUuid;
    const profile = await ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name: 'fpga', groups: [{ 'resources:FPGA': '1' }] }] });
    expect(profile.status).toBe(201);
  });
  afterAll(() => ledger?.close());

  const createArq = async (project: string): Promise<string> => {
    const response = await ledger.request('POST', '/v2/accelerator_requests', { token: novaOf(project), body: { device_profile_name: 'fpga' } });
    expect(response.status).toBe(201);
    return response.body.arqs[0].uuid;
  };
  const bind = (project: string, arq: string, instance: string) =>
    ledger.request('PATCH', '/v2/accelerator_requests', {
      token: novaOf(project),
      body: {
        [arq]: [
          { op: 'add', path: '/hostname', value: 'compute-1' },
          { op: 'add', path: '/device_rp_uuid', value: fpgaRp },
          { op: 'add', path: '/instance_uuid', value: instance },
        ],
      },
    });
  const answerOf = (response: TestResponse) => ({ status: response.status, code: response.headers.get('x-error-code') });

  describe('the instance check (no hot-add) counts the requests of the bound request’s own project only', () => {
    it('answers a bind to another project’s instance exactly as a bind to an unused one, and neither project blocks the other', async () => {
      const [instanceOfA, unused, takenByB] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      const a1 = await createArq(A);
      expect(answerOf(await bind(A, a1, instanceOfA))).toEqual({ status: 202, code: null });

      const [b1, b2] = [await createArq(B), await createArq(B)];
      const toA = await bind(B, b1, instanceOfA);
      const toUnused = await bind(B, b2, unused);
      expect(answerOf(toA)).toEqual(answerOf(toUnused));
      expect(answerOf(toA)).toEqual({ status: 202, code: null });
      for (const response of [toA, toUnused]) expect(JSON.stringify(response.body ?? '')).not.toMatch(new RegExp(`${a1}|${A}`));
      // B's reads by instance show B's requests only.
      const listed = await ledger.request('GET', `/v2/accelerator_requests?instance=${instanceOfA}`, { token: novaOf(B) });
      expect(listed.body.arqs.map((arq: any) => arq.uuid)).toEqual([b1]);
      expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${b2}`, { token: novaOf(B) })).status).toBe(204); // the device has 4 handles

      // B binding first does not block A.
      const b3 = await createArq(B);
      expect(answerOf(await bind(B, b3, takenByB))).toEqual({ status: 202, code: null });
      const a2 = await createArq(A);
      expect(answerOf(await bind(A, a2, takenByB))).toEqual({ status: 202, code: null });

      // B deleting by A's instance id deletes B's requests only.
      expect((await ledger.request('DELETE', `/v2/accelerator_requests?instance=${instanceOfA}`, { token: novaOf(B) })).status).toBe(204);
      expect((await ledger.request('GET', `/v2/accelerator_requests/${a1}`, { token: novaOf(A) })).body.state).toBe('Bound');
      expect((await ledger.request('GET', `/v2/accelerator_requests/${b1}`, { token: novaOf(B) })).status).toBe(404);
      await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${[a1, a2].join(',')}`, { token: novaOf(A) });
      await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${b3}`, { token: novaOf(B) });
    });

    it('keeps Cyborg’s rule within a project: an instance that owns requests gets no more', async () => {
      const instance = crypto.randomUUID();
      const [first, second] = [await createArq(A), await createArq(A)];
      expect(answerOf(await bind(A, first, instance))).toEqual({ status: 202, code: null });
      const hotAdd = await bind(A, second, instance);
      expect(answerOf(hotAdd)).toEqual({ status: 400, code: 'ARQ.INVALID' });
      expect(hotAdd.body.error_message).toContain(`Instance ${instance} already has accelerator requests`);
      await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${[first, second].join(',')}`, { token: novaOf(A) });
    });
  });
});
