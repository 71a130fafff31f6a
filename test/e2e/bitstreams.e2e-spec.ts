import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { IMAGE_FUNCTION_ID as FUNCTION_ID, imageBody, pemOf } from '../support/bitstreams';
import { hostname, hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';

describe('bitstreams over HTTP (embedded SQLite)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  const trusted = generateKeyPairSync('ed25519');
  const stranger = generateKeyPairSync('ed25519');
  let keyId: string;
  let images = 0;
  const newImage = () => Buffer.from(`GBS image ${++images} ${randomUUID()} `.repeat(64));

  beforeAll(async () => {
    ledger = await startTestLedger();
    store = ledger.app.get<EventStore>(EVENT_STORE);
    const trustedKey = await asAdmin('POST', '/api/v1/signing-keys', { publicKeyPem: pemOf(trusted.publicKey), label: 'release' });
    expect(trustedKey.status).toBe(200);
    keyId = trustedKey.body.keyId;
  });
  afterAll(() => ledger.close());

  const asAdmin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    ledger.request(method, path, { token: ledger.adminToken, body, headers });
  const fresh = (position: number) => ({ 'x-ledger-min-position': String(position) });

  /** A 4xx with its stable code in the header and the problem document, and nothing appended. */
  async function expectRefused(send: () => Promise<TestResponse>, status: number, code: string, facts: Record<string, unknown> = {}): Promise<void> {
    const before = await store.headPosition();
    const response = await send();
    expect({ status: response.status, header: response.headers.get('x-error-code'), code: response.body?.code }).toEqual({ status, header: code, code });
    expect(response.body).toMatchObject(facts);
    expect(await store.headPosition()).toBe(before);
  }

  it('registers a well-signed image, records the verdict, lists it and serves its bytes to agents', async () => {
    const content = newImage();
    const sha256 = createHash('sha256').update(content).digest('hex');
    const registered = await asAdmin('POST', '/api/v1/bitstreams', imageBody(content, trusted.privateKey, { name: 'nlb0' }));
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      bitstreamId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sha256,
      sizeBytes: content.length,
      signature: { verdict: 'valid', keyId },
      position: expect.any(Number),
    });
    const { bitstreamId, position } = registered.body;
    const [event] = await store.readStream(`bitstream-${bitstreamId}`);
    expect(event).toMatchObject({ type: 'programming.BitstreamRegistered', data: { sha256, functionId: FUNCTION_ID, signature: { verdict: 'valid', keyId } } });

    const shown = await asAdmin('GET', `/api/v1/bitstreams/${bitstreamId}`, undefined, fresh(position));
    expect(shown.body).toMatchObject({ bitstreamId, sha256, name: 'nlb0', vendor: 'intel', state: 'registered', registeredBy: 'admin' });
    const listed = await asAdmin('GET', `/api/v1/bitstreams?functionId=${FUNCTION_ID}`, undefined, fresh(position));
    expect(listed.body.map((b: { bitstreamId: string }) => b.bitstreamId)).toContain(bitstreamId);

    const agent = ledger.token({ user: 'agent:compute-9', project: null, roles: ['agent'], host: 'compute-9' });
    const download = await fetch(`${ledger.url}/api/v1/bitstreams/${bitstreamId}/content`, { headers: { 'x-auth-token': agent } });
    expect([download.status, download.headers.get('content-type')]).toEqual([200, 'application/octet-stream']);
    expect(createHash('sha256').update(Buffer.from(await download.arrayBuffer())).digest('hex')).toBe(sha256);

    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', imageBody(content, trusted.privateKey)), 409, 'BITSTREAM.DUPLICATE', { bitstreamId });
  });

  it('refuses a tampered image, a signature by an untrusted key and a garbage signature, storing and recording nothing', async () => {
    const content = newImage();
    const signature = sign(null, content, trusted.privateKey).toString('base64');
    const tampered = Buffer.from(content);
    tampered[10] ^= 0x20;
    await expectRefused(
      () => asAdmin('POST', '/api/v1/bitstreams', { ...imageBody(tampered, null), signature }),
      400,
      'BITSTREAM.SIGNATURE_INVALID',
      { reason: 'does not verify with any of the 1 trusted keys' },
    );
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', imageBody(content, stranger.privateKey)), 400, 'BITSTREAM.SIGNATURE_INVALID');
    await expectRefused(
      () => asAdmin('POST', '/api/v1/bitstreams', { ...imageBody(content, null), signature: Buffer.from('garbage').toString('base64') }),
      400,
      'BITSTREAM.SIGNATURE_INVALID',
    );
    await expectRefused(
      () => asAdmin('POST', '/api/v1/bitstreams', imageBody(content, stranger.privateKey, { keyId: 'ab'.repeat(32) })),
      404,
      'BITSTREAM.KEY_UNKNOWN',
    );
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...imageBody(content, null), content: 'not base64!' }), 400, 'BITSTREAM.INVALID', {
      path: 'content',
    });
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', imageBody(content, trusted.privateKey, { functionId: 'nlb' })), 400, 'BITSTREAM.INVALID', {
      path: 'functionId',
    });
    // None of the refused uploads left bytes behind: the store holds only images that were registered.
    const sha256 = createHash('sha256').update(content).digest('hex');
    expect(readdirSync(ledger.config.bitstreams.contentDir)).not.toContain(`${sha256}.bin`);
  });

  it('refuses an unsigned image by default', async () => {
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', imageBody(newImage(), null)), 400, 'BITSTREAM.UNSIGNED');
  });

  it('registers an unsigned image where LEDGER_BITSTREAM_ALLOW_UNSIGNED allows it, and still refuses a bad signature there', async () => {
    const lenient = await startTestLedger({ LEDGER_BITSTREAM_ALLOW_UNSIGNED: 'true' });
    try {
      const registered = await lenient.request('POST', '/api/v1/bitstreams', { token: lenient.adminToken, body: imageBody(newImage(), null) });
      expect([registered.status, registered.body.signature]).toEqual([201, { verdict: 'unsigned' }]);
      const forged = await lenient.request('POST', '/api/v1/bitstreams', { token: lenient.adminToken, body: imageBody(newImage(), stranger.privateKey) });
      expect([forged.status, forged.body.code, forged.body.reason]).toEqual([400, 'BITSTREAM.SIGNATURE_INVALID', 'no signing key is trusted']);
    } finally {
      await lenient.close();
    }
  });

  it('retires an image once, and a revoked key signs nothing more', async () => {
    const registered = await asAdmin('POST', '/api/v1/bitstreams', imageBody(newImage(), trusted.privateKey));
    const { bitstreamId } = registered.body;
    const retired = await asAdmin('POST', `/api/v1/bitstreams/${bitstreamId}/retire`, { reason: 'superseded' });
    expect([retired.status, retired.body.appended]).toEqual([200, 1]);
    expect((await asAdmin('POST', `/api/v1/bitstreams/${bitstreamId}/retire`, {})).body).toEqual({ appended: 0, position: null });
    const shown = await asAdmin('GET', `/api/v1/bitstreams/${bitstreamId}`, undefined, fresh(retired.body.position));
    expect(shown.body).toMatchObject({ state: 'retired', retireReason: 'superseded' });
    const live = await asAdmin('GET', '/api/v1/bitstreams?live=true', undefined, fresh(retired.body.position));
    expect(live.body.map((b: { bitstreamId: string }) => b.bitstreamId)).not.toContain(bitstreamId);
    await expectRefused(() => asAdmin('POST', `/api/v1/bitstreams/${randomUUID()}/retire`, {}), 404, 'BITSTREAM.NOT_FOUND');

    const other = generateKeyPairSync('ed25519');
    const otherKey = (await asAdmin('POST', '/api/v1/signing-keys', { publicKeyPem: pemOf(other.publicKey) })).body.keyId;
    const revoked = await asAdmin('POST', `/api/v1/signing-keys/${otherKey}/revoke`);
    expect([revoked.status, revoked.body.appended]).toEqual([200, 1]);
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', imageBody(newImage(), other.privateKey)), 400, 'BITSTREAM.SIGNATURE_INVALID');
    await expectRefused(() => asAdmin('POST', `/api/v1/signing-keys/${otherKey}/revoke`), 404, 'BITSTREAM.KEY_UNKNOWN');
    const keys = await asAdmin('GET', '/api/v1/signing-keys', undefined, fresh(revoked.body.position));
    expect(keys.body.map((k: { keyId: string; state: string }) => [k.keyId, k.state])).toEqual(
      expect.arrayContaining([
        [keyId, 'trusted'],
        [otherKey, 'revoked'],
      ]),
    );
    await expectRefused(() => asAdmin('POST', '/api/v1/signing-keys', { publicKeyPem: 'not a key' }), 400, 'BITSTREAM.KEY_INVALID');
  });

  it("shows an image signed by a key revoked since as revoked, and valid again once the key is trusted again", async () => {
    const later = generateKeyPairSync('ed25519');
    const laterKey = (await asAdmin('POST', '/api/v1/signing-keys', { publicKeyPem: pemOf(later.publicKey), label: 'later' })).body.keyId;
    const { bitstreamId } = (await asAdmin('POST', '/api/v1/bitstreams', imageBody(newImage(), later.privateKey))).body;
    const revoked = await asAdmin('POST', `/api/v1/signing-keys/${laterKey}/revoke`);
    const shown = await asAdmin('GET', `/api/v1/bitstreams/${bitstreamId}`, undefined, fresh(revoked.body.position));
    expect(shown.body.signature).toEqual({ verdict: 'revoked', keyId: laterKey });
    const listed = (await asAdmin('GET', '/api/v1/bitstreams', undefined, fresh(revoked.body.position))).body.find((b: { bitstreamId: string }) => b.bitstreamId === bitstreamId);
    expect(listed.signature).toEqual({ verdict: 'revoked', keyId: laterKey });
    const trustedAgain = await asAdmin('POST', '/api/v1/signing-keys', { publicKeyPem: pemOf(later.publicKey), label: 'later' });
    const again = await asAdmin('GET', `/api/v1/bitstreams/${bitstreamId}`, undefined, fresh(trustedAgain.body.position));
    expect(again.body.signature).toEqual({ verdict: 'valid', keyId: laterKey });
  });

  it("records a region's provenance once the agent completes a program job that names the bitstream", async () => {
    const content = newImage();
    const { bitstreamId, sha256 } = (await asAdmin('POST', '/api/v1/bitstreams', imageBody(content, trusted.privateKey))).body;
    const host = hostname(500);
    const agent = ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
    const report = await ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agent, body: hostReportBody(500) });
    expect(report.status).toBe(200);
    const heartbeat = { agentVersion: '0.1.0', intervalSeconds: 3600, devices: [] };
    expect((await ledger.request('POST', `/api/v1/hosts/${host}/heartbeat`, { token: agent, body: heartbeat })).status).toBe(200);
    const deployables = (await asAdmin('GET', `/api/v1/deployables?hostname=${host}`, undefined, fresh(report.body.position))).body.items;
    const fpga = deployables.find((d: { resourceClass: string }) => d.resourceClass === 'FPGA');
    const device = (await asAdmin('GET', `/api/v1/devices/${fpga.deviceUuid}`, undefined, fresh(report.body.position))).body;

    const manager = ledger.token({ user: 'ops', project: 'p-ops', roles: ['admin'] });
    const correlationId = randomUUID();
    const requested = await ledger.request('POST', `/api/v1/hosts/${host}/jobs`, {
      token: manager,
      headers: { 'x-correlation-id': correlationId },
      body: {
        kind: 'program',
        params: {
          deviceUuid: fpga.deviceUuid,
          deployableUuid: fpga.uuid,
          pciAddress: device.pciAddress,
          image: { url: `${ledger.url}/api/v1/bitstreams/${bitstreamId}/content`, sha256 },
          bitstreamId,
        },
      },
    });
    expect(requested.status).toBe(202);
    const { jobId } = requested.body;
    const polled = await ledger.request('GET', `/api/v1/hosts/${host}/jobs/next?waitSeconds=5`, { token: agent, headers: { 'x-agent-boot': randomUUID() } });
    expect(polled.body.jobs.map((job: { jobId: string; params: { bitstreamId?: string } }) => [job.jobId, job.params.bitstreamId])).toEqual([[jobId, bitstreamId]]);
    const before = await asAdmin('GET', `/api/v1/devices/${fpga.deviceUuid}/provenance`, undefined, fresh(requested.body.position));
    expect(before.body).toEqual({ deviceUuid: fpga.deviceUuid, loads: [] });

    const evidence = { functionId: FUNCTION_ID, sha256, previousFunctionId: null };
    const done = await ledger.request('POST', `/api/v1/jobs/${jobId}/result`, { token: agent, body: { outcome: 'completed', evidence } });
    expect(done.status).toBe(200);
    const provenance = await asAdmin('GET', `/api/v1/devices/${fpga.deviceUuid.toUpperCase()}/provenance`, undefined, fresh(done.body.position));
    expect(provenance.body).toEqual({
      deviceUuid: fpga.deviceUuid,
      loads: [
        {
          deployableUuid: fpga.uuid,
          region: null,
          bitstreamId,
          sha256,
          functionId: FUNCTION_ID,
          previousFunctionId: null,
          loadedAt: expect.any(String),
          jobId,
          hostname: host,
          correlationId,
          project: 'p-ops',
          requestedBy: 'ops',
        },
      ],
    });
  });
});
