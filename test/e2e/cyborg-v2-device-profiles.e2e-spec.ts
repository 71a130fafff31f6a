import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';
import { expectCyborgRefusal } from '../support/cyborg-v2-assertions';

/** Real Cyborg's answers, captured from a running instance (test/fixtures/cyborg-v2-samples). */
const sample = (name: string) => JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'cyborg-v2-samples', name), 'utf8'));
/** The message inside Cyborg's JSON-in-JSON error body (we send the message alone). */
const faultOf = (name: string): string => JSON.parse(sample(name).error_message).faultstring;

const V22 = { 'OpenStack-API-Version': 'accelerator 2.2' };
const CYBORG_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;
const fpgaGroups = [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }];

describe('Cyborg v2: device profiles over HTTP (embedded SQLite)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let member: string;
  let reader: string;

  beforeAll(async () => {
    ledger = await startTestLedger();
    store = ledger.app.get<EventStore>(EVENT_STORE);
    member = ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
    reader = ledger.token({ user: 'bob', project: 'tenant-b', roles: ['reader'] });
  });
  afterAll(() => ledger.close());

  const admin = (method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) =>
    ledger.request(method, path, { token: ledger.adminToken, ...options });
  const createProfile = (name: string, extra: Record<string, unknown> = {}) => admin('POST', '/v2/device_profiles', { body: [{ name, groups: fpgaGroups, ...extra }] });

  const expectRefused = (send: () => Promise<TestResponse>, status: number, code: string) => expectCyborgRefusal(store, send, status, code);

  describe('create and show, as `openstack accelerator device profile create` does', () => {
    it('creates from a list of one and answers 201 with a bare profile shaped like Cyborg\'s', async () => {
      const created = await admin('POST', '/v2/device_profiles', { body: [{ name: 'fpga-dp', groups: fpgaGroups, description: 'one Arria 10' }] });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body)).toEqual(Object.keys(sample('device_profiles_post.json')));
      expect(created.body).toEqual({
        uuid: expect.any(String),
        name: 'fpga-dp',
        description: 'one Arria 10',
        groups: fpgaGroups,
        created_at: expect.stringMatching(CYBORG_TIME),
        updated_at: null,
        links: [{ href: `${ledger.url}/v2/device_profiles/${created.body.uuid}`, rel: 'self' }],
      });
      expect(created.headers.get('openstack-api-version')).toBe('accelerator 2.0');

      // The client shows the profile right after creating it: the read must already see it.
      const shown = await ledger.request('GET', `/v2/device_profiles/${created.body.uuid}`, { token: reader });
      expect(shown.status).toBe(200);
      expect(Object.keys(shown.body)).toEqual(['device_profile']);
      expect(Object.keys(shown.body.device_profile)).toEqual(Object.keys(sample('device_profile_get_uuid.json').device_profile));
      const { name, description, uuid, groups, created_at, updated_at, links } = created.body;
      expect(shown.body.device_profile).toEqual({ name, description, uuid, groups, created_at, updated_at, links });
    });

    it('also takes a bare object (Cyborg refuses it), and keeps group values as strings', async () => {
      const created = await admin('POST', '/v2/device_profiles', {
        body: { name: 'gpu-dp', groups: [{ 'resources: PGPU': 2, 'trait:CUSTOM_NVIDIA_20B5': 'required' }, { 'resources:VGPU': '1' }] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'gpu-dp',
        description: null,
        groups: [{ 'resources:PGPU': '2', 'trait:CUSTOM_NVIDIA_20B5': 'required' }, { 'resources:VGPU': '1' }],
      });
    });

    it('takes the uuid the admin chooses, lower-cased', async () => {
      const uuid = '0196B3C2-0000-7000-8000-0000000000C1';
      const created = await createProfile('chosen-uuid', { uuid });
      expect(created.status).toBe(201);
      expect(created.body.uuid).toBe(uuid.toLowerCase());
      expect((await ledger.request('GET', `/v2/device_profiles/${uuid}`, { token: reader })).body.device_profile.name).toBe('chosen-uuid');
    });

    it('shows a profile by name from 2.2, and refuses a name below 2.2 with 406 as Cyborg does', async () => {
      const byName = await ledger.request('GET', '/v2/device_profiles/fpga-dp', { token: reader, headers: V22 });
      expect(byName.status).toBe(200);
      expect(Object.keys(byName.body.device_profile)).toEqual(Object.keys(sample('device_profile_get_name_v22.json').device_profile));
      expect(byName.body.device_profile).toMatchObject({ name: 'fpga-dp', groups: fpgaGroups });
      expect(byName.headers.get('openstack-api-version')).toBe('accelerator 2.2');

      const message = await expectRefused(() => ledger.request('GET', '/v2/device_profiles/fpga-dp', { token: reader }), 406, 'V2.VERSION_NOT_ACCEPTABLE');
      expect(message).toBe(faultOf('device_profile_get_name_v20_406.json'));
    });

    it("answers an unknown uuid or name with 404 in Cyborg's words", async () => {
      const unknownUuid = '00000000-0000-0000-0000-000000000000';
      const byUuid = await expectRefused(() => ledger.request('GET', `/v2/device_profiles/${unknownUuid}`, { token: reader }), 404, 'DEVICE_PROFILE.NOT_FOUND');
      expect(byUuid).toBe(faultOf('device_profile_get_404.json'));
      const byName = await expectRefused(() => ledger.request('GET', '/v2/device_profiles/nope', { token: reader, headers: V22 }), 404, 'DEVICE_PROFILE.NOT_FOUND');
      expect(byName).toBe('Device Profile not found with name=nope');
    });
  });

  describe('list', () => {
    it("lists every profile oldest first, shaped like Cyborg's list", async () => {
      const listed = await ledger.request('GET', '/v2/device_profiles', { token: reader });
      expect(listed.status).toBe(200);
      expect(Object.keys(listed.body)).toEqual(['device_profiles']);
      expect(listed.body.device_profiles.map((profile: { name: string }) => profile.name)).toEqual(['fpga-dp', 'gpu-dp', 'chosen-uuid']);
      const expectedKeys = Object.keys(sample('device_profiles_list.json').device_profiles[0]);
      for (const profile of listed.body.device_profiles) expect(Object.keys(profile)).toEqual(expectedKeys);
    });

    it('filters by ?name=a,b, the way Nova looks a profile up', async () => {
      const one = await ledger.request('GET', '/v2/device_profiles?name=fpga-dp', { token: reader });
      expect(Object.keys(one.body.device_profiles[0])).toEqual(Object.keys(sample('device_profile_list_by_name.json').device_profiles[0]));
      expect(one.body.device_profiles.map((profile: { name: string }) => profile.name)).toEqual(['fpga-dp']);
      const two = await ledger.request('GET', '/v2/device_profiles?name=gpu-dp,fpga-dp,nope', { token: reader });
      expect(two.body.device_profiles.map((profile: { name: string }) => profile.name)).toEqual(['fpga-dp', 'gpu-dp']);
      expect((await ledger.request('GET', '/v2/device_profiles?name=nope', { token: reader })).body).toEqual({ device_profiles: [] });
    });

    it('refuses any other query parameter', async () => {
      await expectRefused(() => ledger.request('GET', '/v2/device_profiles?names=fpga-dp', { token: reader }), 400, 'REQUEST.INVALID');
    });
  });

  describe('who may do what', () => {
    it('lets a member of any project read, but only an admin create or delete (403, nothing recorded)', async () => {
      expect((await ledger.request('GET', '/v2/device_profiles', { token: member })).status).toBe(200);
      await expectRefused(
        () => ledger.request('POST', '/v2/device_profiles', { token: member, body: [{ name: 'mine', groups: fpgaGroups }] }),
        403,
        'AUTH.POLICY_DENIED',
      );
      await expectRefused(() => ledger.request('DELETE', '/v2/device_profiles?value=fpga-dp', { token: reader }), 403, 'AUTH.POLICY_DENIED');
      await expectRefused(() => ledger.request('GET', '/v2/device_profiles'), 401, 'AUTH.TOKEN_MISSING');
    });
  });

  describe('bad input: 400 (or 409), a stable code, nothing recorded', () => {
    it("refuses a second profile with a taken name in Cyborg's words (without its traceback), and a taken uuid", async () => {
      const message = await expectRefused(() => createProfile('fpga-dp'), 409, 'DEVICE_PROFILE.DUPLICATE');
      expect(message).toBe(faultOf('device_profiles_post_dup_409.json').split('\n')[0]);
      const taken = (await ledger.request('GET', '/v2/device_profiles?name=gpu-dp', { token: reader })).body.device_profiles[0].uuid;
      expect(await expectRefused(() => createProfile('other-name', { uuid: taken }), 409, 'DEVICE_PROFILE.DUPLICATE')).toBe(
        `A device_profile with uuid ${taken} already exists.`,
      );
    });

    it('lets exactly one of two concurrent creates of one name win', async () => {
      const before = await store.headPosition();
      const responses = await Promise.all([createProfile('race-dp'), createProfile('race-dp')]);
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
      expect(await store.headPosition()).toBe(before + 1);
    });

    it("says what Cyborg says about a trait outside CUSTOM_, and where", async () => {
      const message = await expectRefused(
        () => createProfile('bad-trait', { groups: [{ 'resources:FPGA': '1', 'trait:FOO': 'required' }] }),
        400,
        'DEVICE_PROFILE.INVALID',
      );
      expect(message.startsWith(faultOf('device_profiles_post_badtrait_400.json'))).toBe(true);
      expect(message).toContain('group 0');
    });

    it('refuses a missing name with 400 where Cyborg fails with 500', async () => {
      const message = await expectRefused(() => admin('POST', '/v2/device_profiles', { body: [{ groups: fpgaGroups }] }), 400, 'DEVICE_PROFILE.INVALID');
      expect(message).toBe(faultOf('device_profiles_post_noname_500.json'));
    });

    it.each([
      ['an empty list', []],
      ['a list of two', [{ name: 'two-a', groups: fpgaGroups }, { name: 'two-b', groups: fpgaGroups }]],
      ['a string', 'fpga'],
      ['a list holding null', [null]],
      ['an unknown field', [{ name: 'extra', groups: fpgaGroups, project_id: 'p' }]],
      ['a name with a dot', [{ name: 'fpga.dp', groups: fpgaGroups }]],
      ['a name of 256 characters', [{ name: 'n'.repeat(256), groups: fpgaGroups }]],
      ['a description of 256 characters', [{ name: 'long-desc', groups: fpgaGroups, description: 'd'.repeat(256) }]],
      ['a uuid that is not one', [{ name: 'bad-uuid', groups: fpgaGroups, uuid: '1234' }]],
      ['no groups', [{ name: 'no-groups' }]],
      ['an empty group list', [{ name: 'no-groups', groups: [] }]],
      ['a group that is no object', [{ name: 'g', groups: ['resources:FPGA=1'] }]],
      ['a group without resources', [{ name: 'g', groups: [{ 'trait:CUSTOM_X': 'required' }] }]],
      ['an unknown key prefix', [{ name: 'g', groups: [{ 'resources:FPGA': '1', 'color:red': 'yes' }] }]],
      ['an unsupported resource class', [{ name: 'g', groups: [{ 'resources:ASIC': '1' }] }]],
      ['an amount that is no integer', [{ name: 'g', groups: [{ 'resources:FPGA': 'one' }] }]],
      ['an amount of zero', [{ name: 'g', groups: [{ 'resources:FPGA': 0 }] }]],
      ['a trait value other than required or forbidden', [{ name: 'g', groups: [{ 'resources:FPGA': '1', 'trait:CUSTOM_X': 'maybe' }] }]],
      ['bitstream and function id together', [{ name: 'g', groups: [{ 'resources:FPGA': '1', 'accel:bitstream_id': 'b', 'accel:function_id': 'f' }] }]],
      ['a non-string accel value', [{ name: 'g', groups: [{ 'resources:FPGA': '1', 'accel:function_id': 3 }] }]],
      ['17 groups', [{ name: 'g', groups: Array(17).fill({ 'resources:FPGA': '1' }) }]],
      ['more than 64 units in all', [{ name: 'g', groups: [{ 'resources:FPGA': '40' }, { 'resources:GPU': '25' }] }]],
    ])('refuses %s with DEVICE_PROFILE.INVALID', async (_, body) => {
      await expectRefused(() => admin('POST', '/v2/device_profiles', { body }), 400, 'DEVICE_PROFILE.INVALID');
    });

    it('refuses a body that is not JSON', async () => {
      await expectRefused(
        () => admin('POST', '/v2/device_profiles', { rawBody: '[{"name":', headers: { 'content-type': 'application/json' } }),
        400,
        'REQUEST.MALFORMED_JSON',
      );
    });
  });

  describe('delete', () => {
    it("deletes by uuid with 204, then answers 404 in Cyborg's words", async () => {
      const { uuid } = (await createProfile('tmp-dp')).body;
      const deleted = await admin('DELETE', `/v2/device_profiles/${uuid}`);
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBeUndefined();
      await expectRefused(() => ledger.request('GET', `/v2/device_profiles/${uuid}`, { token: reader }), 404, 'DEVICE_PROFILE.NOT_FOUND');
      const again = await expectRefused(() => admin('DELETE', `/v2/device_profiles/${uuid}`), 404, 'DEVICE_PROFILE.NOT_FOUND');
      expect(again).toBe(`Device Profile not found with uuid=${uuid}`);
      expect(faultOf('device_profile_delete_uuid_404.json')).toMatch(/^Device Profile not found with uuid=/);
    });

    it('deletes by ?value=n1,n2, and deletes nothing when one name is unknown', async () => {
      await createProfile('tmp-a');
      await createProfile('tmp-b');
      const message = await expectRefused(() => admin('DELETE', '/v2/device_profiles?value=tmp-a,tmp-dp2,tmp-b'), 404, 'DEVICE_PROFILE.NOT_FOUND');
      expect(message).toBe(faultOf('device_profile_delete_name_404.json'));
      expect((await ledger.request('GET', '/v2/device_profiles?name=tmp-a,tmp-b', { token: reader })).body.device_profiles).toHaveLength(2);

      expect((await admin('DELETE', '/v2/device_profiles?value=tmp-a,tmp-b')).status).toBe(204);
      expect((await ledger.request('GET', '/v2/device_profiles?name=tmp-a,tmp-b', { token: reader })).body).toEqual({ device_profiles: [] });
    });

    it('refuses to delete a profile that accelerator requests still use (409), and deletes it once they are gone', async () => {
      const { uuid } = (await createProfile('used-dp')).body;
      // Counted by the command from the log (DeviceProfileIndex), not from a read model.
      const created = await ledger.request('POST', '/v2/accelerator_requests', { token: member, body: { device_profile_name: 'used-dp' } });
      expect(created.status).toBe(201);
      const message = await expectRefused(() => admin('DELETE', `/v2/device_profiles/${uuid}`), 409, 'DEVICE_PROFILE.IN_USE');
      expect(message).toMatch(/used-dp is still used by 1 accelerator request/);
      await expectRefused(() => admin('DELETE', '/v2/device_profiles?value=fpga-dp,used-dp'), 409, 'DEVICE_PROFILE.IN_USE');
      expect((await ledger.request('GET', '/v2/device_profiles?name=fpga-dp', { token: reader })).body.device_profiles).toHaveLength(1);

      const arqs = created.body.arqs.map((arq: { uuid: string }) => arq.uuid).join(',');
      expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${arqs}`, { token: member })).status).toBe(204);
      expect((await admin('DELETE', `/v2/device_profiles/${uuid}`)).status).toBe(204);
    });

    it('frees the name of a deleted profile for a new profile with a new uuid', async () => {
      const first = (await createProfile('reused')).body.uuid;
      expect((await admin('DELETE', '/v2/device_profiles?value=reused')).status).toBe(204);
      const second = await createProfile('reused');
      expect(second.status).toBe(201);
      expect(second.body.uuid).not.toBe(first);
      const shown = await ledger.request('GET', '/v2/device_profiles/reused', { token: reader, headers: V22 });
      expect(shown.body.device_profile.uuid).toBe(second.body.uuid);
    });

    it('refuses a delete without ?value=', async () => {
      await expectRefused(() => admin('DELETE', '/v2/device_profiles'), 400, 'REQUEST.INVALID');
    });
  });
});
