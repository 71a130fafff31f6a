import { generateKeyPairSync, sign } from 'node:crypto';
import fc from 'fast-check';
import { numericIdOf } from '@ledger/inventory';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';
import { hostReportBody } from '../support/fleet';
import { operationsOf } from '../support/fuzz-requests';
import { CALLED_ROUTES, TENANCY_ROUTES, TENANT_ROLES, type TenancyFixture, type TenantRole } from '../support/tenancy-routes';

const A = 'tenant-a';
const B = 'tenant-b';
const PROJECTS = [A, B] as const;
type Project = (typeof PROJECTS)[number];
/** Runs of random call sequences: 200 by default (CI); set TENANCY_RUNS for a longer search. */
const RUNS = Number(process.env.TENANCY_RUNS ?? 200);
/**
 * Found by a 10,000-run search: B binds its request to A's instance, then A lists its own bound request, which
 * names that instance. Not a leak (A's own instance), but the model once counted it as B's: always run it.
 */
const SHARED_INSTANCE: Call[] = [
  { op: 'create', by: 'tenant-b', pick: 0 },
  { op: 'create', by: 'tenant-a', pick: 0 },
  { op: 'bindOwn', by: 'tenant-a', pick: 0 },
  { op: 'bindToOtherInstance', by: 'tenant-b', pick: 0 },
  { op: 'list', by: 'tenant-a', pick: 0 },
];
const MAX_CALLS = 20;
/** Jest's bound on the property: a sequence takes about 40 ms here, so 200 take seconds and 10,000 several minutes. */
const PROPERTY_TIMEOUT_MS = 60_000 + RUNS * 200;

/** What each project created, as far as the test knows: the ids no other project may ever see. */
interface Model {
  readonly arqs: Record<Project, string[]>;
  readonly instances: Record<Project, string[]>;
}

/** The calls on a project's own requests and quota (the routes TENANCY_ROUTES marks `scoped`), and `route`: any other route, by any tenant role. */
const SCOPED_OPS = [
  'create', 'list', 'deleteOwn', 'bindOwn', 'readQuotaOfOther',
  'showOther', 'bindOther', 'deleteOther', 'listByOtherInstance', 'bindToOtherInstance', 'deleteByOtherInstance',
] as const;
type Call = { readonly op: (typeof SCOPED_OPS)[number] | 'route'; readonly by: Project; readonly pick: number };

const callArbitrary: fc.Arbitrary<Call> = fc.record({
  // Creates twice as often and other routes four times: sequences build state, and reach every route.
  op: fc.constantFrom(...SCOPED_OPS, 'create', 'route', 'route', 'route', 'route'),
  by: fc.constantFrom(...PROJECTS),
  pick: fc.nat(),
});

describe('tenancy: no project learns about another', () => {
  let ledger: TestLedger;
  let fpgaRp: string;
  let fixture: TenancyFixture;
  /** Nova as each project's tenant sends it: the member's own token, with the service role. */
  const novaOf = (project: string) => ledger.token({ user: `nova-${project}`, project, roles: ['member', 'service'] });
  const asAdmin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });

  beforeAll(async () => {
    // A Nova nobody listens on: the Nova notifier reactor runs, retries and parks, so its routes have something to show.
    ledger = await startTestLedger({ LEDGER_NOVA_URL: 'http://127.0.0.1:9/v2.1', LEDGER_LOG_LEVEL: 'error' });
    const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
    const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 2) });
    expect(report.status).toBe(200);
    const deployables = await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', {
      token: ledger.adminToken,
      headers: { 'x-ledger-min-position': String(report.body.position) },
    });
    const fpga = deployables.body.items.find((d: any) => d.resourceClass === 'FPGA');
    fpgaRp = fpga.rpUuid;
    const profile = await asAdmin('POST', '/v2/device_profiles', [{ name: 'fpga', groups: [{ 'resources:FPGA': '1' }] }]);
    expect(profile.status).toBe(201);
    fixture = {
      host: 'compute-1',
      device: fpga.deviceUuid,
      deployable: fpga.uuid,
      profile: { uuid: profile.body.uuid, name: 'fpga' },
      ...(await operatorObjects(agent, fpga.uuid)),
      reactor: 'nova-notifier',
    };
  });
  afterAll(() => ledger?.close());

  /** A trusted signing key and an image signed with it, an attribute, and a finished job: what the operator's routes show. */
  async function operatorObjects(agent: string, deployable: string) {
    const signer = generateKeyPairSync('ed25519');
    const trusted = await asAdmin('POST', '/api/v1/signing-keys', { publicKeyPem: signer.publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    expect(trusted.status).toBe(200);
    const image = Buffer.from('tenancy image');
    const registered = await asAdmin('POST', '/api/v1/bitstreams', {
      content: image.toString('base64'),
      signature: sign(null, image, signer.privateKey).toString('base64'),
      functionId: '9f'.repeat(16),
      interfaceId: 'tenancy-shell',
      vendor: 'intel',
    });
    expect(registered.status).toBe(201);
    const attribute = await asAdmin('POST', '/v2/attributes', { deployable_id: numericIdOf(deployable), key: 'tenancy', value: 'v' });
    expect(attribute.status).toBe(201);
    expect((await ledger.request('POST', '/api/v1/hosts/compute-1/heartbeat', { token: agent, body: { agentVersion: '0', intervalSeconds: 3600, devices: [] } })).status).toBe(200);
    const job = await asAdmin('POST', '/api/v1/hosts/compute-1/jobs', { kind: 'discover', params: {} });
    expect(job.status).toBe(202);
    expect((await asAdmin('POST', `/api/v1/jobs/${job.body.jobId}/result`, { outcome: 'completed', evidence: {} })).status).toBe(200);
    return { signingKey: trusted.body.keyId as string, bitstream: registered.body.bitstreamId as string, attribute: attribute.body.uuid as string, job: job.body.jobId as string };
  }

  it('classifies every operation of both OpenAPI documents, and only those', async () => {
    const native = (await ledger.request('GET', '/api/v1/openapi.json')).body;
    const v2 = (await ledger.request('GET', '/v2/openapi.json')).body;
    const served = [...operationsOf('native', native), ...operationsOf('v2', v2)].map((operation) => `${operation.method} ${operation.template}`);
    expect(new Set(Object.keys(TENANCY_ROUTES))).toEqual(new Set(served));
    const scopedCalls = Object.values(TENANCY_ROUTES).flatMap((coverage) => (coverage.kind === 'scoped' ? coverage.calls : []));
    expect(new Set(scopedCalls)).toEqual(new Set(SCOPED_OPS));
  });

  const createArq = async (project: string): Promise<string> => {
    const response = await ledger.request('POST', '/v2/accelerator_requests', { token: novaOf(project), body: { device_profile_name: 'fpga' } });
    expect(response.status).toBe(201);
    return response.body.arqs[0].uuid;
  };
  /** A bind as Nova sends it: by default a patch document keyed by request; `onePath` patches /v2/accelerator_requests/{uuid}. */
  const bind = (project: string, arq: string, instance: string, onePath = false) =>
    ledger.request('PATCH', onePath ? `/v2/accelerator_requests/${arq}` : '/v2/accelerator_requests', {
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

  describe('random sequences of calls by two projects', () => {
    const other = (project: Project): Project => (project === A ? B : A);
    const pickOf = <T>(items: readonly T[], pick: number): T | undefined => (items.length === 0 ? undefined : items[pick % items.length]);
    const member = (project: Project) => ledger.token({ user: `alice-${project}`, project, roles: ['member'] });
    const tokenOf = (role: TenantRole, project: Project): Record<string, string> =>
      role === 'nova' ? { 'x-auth-token': novaOf(project) } : { 'x-auth-token': ledger.token({ user: `${role}-${project}`, project, roles: [role] }) };

    /**
     * No answer to `project` names another project, its requests or its instances (but for the id the caller sent
     * itself, and an instance both projects bound to: the other bound to this project's instance, which it knows).
     */
    const expectNothingOf = (model: Model, project: Project, response: TestResponse, call: Call, sent?: string) =>
      expect({ call, leaked: leaksTo(model, project, response, sent) }).toEqual({ call, leaked: [] });
    const leaksTo = (model: Model, project: Project, response: TestResponse, sent?: string): string[] => {
      const text = JSON.stringify(response.body ?? '') + JSON.stringify([...response.headers.entries()]);
      const theirs = [other(project), ...model.arqs[other(project)], ...model.instances[other(project)]].filter(
        (id) => id !== sent && !model.instances[project].includes(id),
      );
      return theirs.filter((id) => text.includes(id));
    };
    /** Another project's object is answered exactly as one that does not exist: status, code and body, the id asked for aside. */
    const expectSameAnswer = (theirs: TestResponse, theirId: string, missing: TestResponse, missingId: string, call: Call) => {
      const bodyOf = (response: TestResponse, id: string) => JSON.stringify(response.body ?? '').replaceAll(id, '<id>');
      expect({ call, ...answerOf(theirs), body: bodyOf(theirs, theirId) }).toEqual({ call, ...answerOf(missing), body: bodyOf(missing, missingId) });
    };

    const run = async (model: Model, call: Call): Promise<void> => {
      const { by, pick } = call;
      const theirArq = pickOf(model.arqs[other(by)], pick);
      const missing = crypto.randomUUID();
      switch (call.op) {
        case 'create': {
          const response = await ledger.request('POST', '/v2/accelerator_requests', { token: novaOf(by), body: { device_profile_name: 'fpga' } });
          expect(response.status).toBe(201);
          model.arqs[by].push(response.body.arqs[0].uuid);
          return expectNothingOf(model, by, response, call);
        }
        case 'list': {
          const response = await ledger.request('GET', '/v2/accelerator_requests', { token: member(by) });
          expect(response.body.arqs.every((arq: any) => model.arqs[by].includes(arq.uuid))).toBe(true);
          return expectNothingOf(model, by, response, call);
        }
        case 'deleteOwn': {
          const arq = pickOf(model.arqs[by], pick);
          if (!arq) return;
          const response = await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${arq}`, { token: novaOf(by) });
          expect(response.status).toBe(204);
          model.arqs[by].splice(model.arqs[by].indexOf(arq), 1);
          return expectNothingOf(model, by, response, call);
        }
        case 'bindOwn':
        case 'bindToOtherInstance': {
          const arq = pickOf(model.arqs[by], pick);
          const instance = call.op === 'bindOwn' ? crypto.randomUUID() : pickOf(model.instances[other(by)], pick);
          if (!arq || !instance) return;
          const response = await bind(by, arq, instance);
          // Bound, no handle left, or already bound elsewhere: never the hot-add refusal, unless this project bound to the instance itself.
          if (!model.instances[by].includes(instance)) expect({ call, ...answerOf(response) }).not.toEqual({ call, status: 400, code: 'ARQ.INVALID' });
          if (response.status === 202) model.instances[by].push(instance);
          return expectNothingOf(model, by, response, call);
        }
        case 'showOther': {
          if (!theirArq) return;
          const [theirs, none] = [
            await ledger.request('GET', `/v2/accelerator_requests/${theirArq}`, { token: member(by) }),
            await ledger.request('GET', `/v2/accelerator_requests/${missing}`, { token: member(by) }),
          ];
          expectSameAnswer(theirs, theirArq, none, missing, call);
          return expectNothingOf(model, by, theirs, call, theirArq);
        }
        case 'bindOther': {
          if (!theirArq) return;
          const instance = crypto.randomUUID();
          const onePath = pick % 2 === 1;
          const [theirs, none] = [await bind(by, theirArq, instance, onePath), await bind(by, missing, instance, onePath)];
          expectSameAnswer(theirs, theirArq, none, missing, call);
          return expectNothingOf(model, by, theirs, call, theirArq);
        }
        case 'deleteOther': {
          if (!theirArq) return;
          const pathOf = (arq: string) => (pick % 2 === 1 ? `/v2/accelerator_requests/${arq}` : `/v2/accelerator_requests?arqs=${arq}`);
          const [theirs, none] = [
            await ledger.request('DELETE', pathOf(theirArq), { token: novaOf(by) }),
            await ledger.request('DELETE', pathOf(missing), { token: novaOf(by) }),
          ];
          expectSameAnswer(theirs, theirArq, none, missing, call);
          return expectNothingOf(model, by, theirs, call, theirArq);
        }
        case 'listByOtherInstance': {
          const instance = pickOf(model.instances[other(by)], pick);
          if (!instance) return;
          const [theirs, none] = [
            await ledger.request('GET', `/v2/accelerator_requests?instance=${instance}`, { token: novaOf(by) }),
            await ledger.request('GET', `/v2/accelerator_requests?instance=${missing}`, { token: novaOf(by) }),
          ];
          expect({ call, ...answerOf(theirs) }).toEqual({ call, ...answerOf(none) });
          expect(theirs.body.arqs.every((arq: any) => model.arqs[by].includes(arq.uuid))).toBe(true);
          return expectNothingOf(model, by, theirs, call, instance);
        }
        case 'readQuotaOfOther': {
          const [theirs, none] = [
            await ledger.request('GET', `/api/v1/quotas/${other(by)}`, { token: member(by) }),
            await ledger.request('GET', `/api/v1/quotas/nobody-${pick}`, { token: member(by) }),
          ];
          expectSameAnswer(theirs, other(by), none, `nobody-${pick}`, call);
          const own = await ledger.request('GET', `/api/v1/quotas/${by}`, { token: member(by) });
          expect(own.status).toBe(200);
          return expectNothingOf(model, by, own, call);
        }
        case 'deleteByOtherInstance': {
          const instance = pickOf(model.instances[other(by)], pick);
          if (!instance) return;
          const theirsOf = async () => (await ledger.request('GET', `/v2/accelerator_requests?instance=${instance}`, { token: novaOf(other(by)) })).body.arqs.map((arq: any) => arq.uuid);
          const before = await theirsOf();
          const [theirs, none] = [
            await ledger.request('DELETE', `/v2/accelerator_requests?instance=${instance}`, { token: novaOf(by) }),
            await ledger.request('DELETE', `/v2/accelerator_requests?instance=${missing}`, { token: novaOf(by) }),
          ];
          expectSameAnswer(theirs, instance, none, missing, call);
          // Deleting by instance deletes the caller's own requests only: the other project's stay.
          expect({ call, theirs: await theirsOf() }).toEqual({ call, theirs: before });
          return expectNothingOf(model, by, theirs, call, instance);
        }
        case 'route':
          return callRoute(model, call);
      }
    };

    /** Any route but the scoped ones, by the tenant role `pick` chooses: whatever it answers names nothing of the other project. */
    const callRoute = async (model: Model, call: Call) => {
      const found = await routeLeaks(model, call);
      expect(found).toEqual({ ...found, status: expect.any(Number), leaked: [] });
    };
    const routeLeaks = async (model: Model, { by, pick }: Call) => {
      const { route, call: callOf } = CALLED_ROUTES[pick % CALLED_ROUTES.length];
      const role = TENANT_ROLES[Math.floor(pick / CALLED_ROUTES.length) % TENANT_ROLES.length];
      const request = callOf(fixture, other(by));
      const response = await ledger.request(request.method, request.path, { headers: { ...tokenOf(role, by), ...request.headers }, body: request.body });
      // A 5xx would hide what the route answers: it fails the property as a leak would.
      const status = response.status < 500 ? response.status : `${response.status} ${JSON.stringify(response.body)}`;
      return { route, by, role, status, leaked: leaksTo(model, by, response, request.sent) };
    };

    it('answers every other route, by every tenant role of either project, with nothing of the other while both hold bound requests', async () => {
      const model: Model = { arqs: { [A]: [], [B]: [] }, instances: { [A]: [], [B]: [] } };
      try {
        for (const project of PROJECTS) {
          const [arq, instance] = [await createArq(project), crypto.randomUUID()];
          model.arqs[project].push(arq);
          expect((await bind(project, arq, instance)).status).toBe(202);
          model.instances[project].push(instance);
        }
        const answers = [];
        for (const by of PROJECTS) {
          for (let pick = 0; pick < CALLED_ROUTES.length * TENANT_ROLES.length; pick++) answers.push(await routeLeaks(model, { op: 'route', by, pick }));
        }
        expect(answers.filter((answer) => typeof answer.status !== 'number' || answer.leaked.length > 0)).toEqual([]);
      } finally {
        for (const project of PROJECTS) await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${model.arqs[project].join(',')}`, { token: novaOf(project) });
      }
    });

    it(`never lets a project see or sense another's requests, instances or id (${RUNS} runs of up to ${MAX_CALLS} calls)`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(callArbitrary, { maxLength: MAX_CALLS }), async (calls) => {
          const model: Model = { arqs: { [A]: [], [B]: [] }, instances: { [A]: [], [B]: [] } };
          try {
            for (const call of calls) await run(model, call);
          } finally {
            for (const project of PROJECTS) {
              if (model.arqs[project].length > 0) await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${model.arqs[project].join(',')}`, { token: novaOf(project) });
            }
          }
        }),
        { numRuns: RUNS, examples: [[SHARED_INSTANCE]] },
      );
    }, PROPERTY_TIMEOUT_MS);
  });
});
