import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { originBody, pemOf, serveImages } from '../support/bitstreams';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';

/** Registration by origin URL (libs/programming README): the ledger reads the image once from a loopback image store and keeps no bytes. */
describe('bitstreams registered by origin URL (embedded SQLite, a loopback image store)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let images: Awaited<ReturnType<typeof serveImages>>;
  const served = new Map<string, Buffer>();
  const trusted = generateKeyPairSync('ed25519');
  const newImage = (path: string) => {
    const content = Buffer.from(`origin image ${randomUUID()} `.repeat(512));
    served.set(path, content);
    return content;
  };

  beforeAll(async () => {
    images = await serveImages(served);
    ledger = await startTestLedger({ LEDGER_BITSTREAM_ORIGIN_TIMEOUT_MS: '5000' });
    store = ledger.app.get<EventStore>(EVENT_STORE);
    expect((await asAdmin('POST', '/api/v1/signing-keys', { publicKeyPem: pemOf(trusted.publicKey) })).status).toBe(200);
  });
  afterAll(async () => {
    await ledger?.close();
    await images?.close();
  });

  const asAdmin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });

  async function expectRefused(send: () => Promise<TestResponse>, status: number, code: string, facts: Record<string, unknown> = {}): Promise<void> {
    const before = await store.headPosition();
    const response = await send();
    expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
    expect(response.body).toMatchObject(facts);
    expect(await store.headPosition()).toBe(before);
  }

  it('registers a signed image by URL: origin url recorded, bytes not kept, content answered 409 with the origin', async () => {
    const content = newImage('/fpga/good.gbs');
    const url = images.url('/fpga/good.gbs');
    const registered = await asAdmin('POST', '/api/v1/bitstreams', originBody(url, content, trusted.privateKey, { name: 'at-origin' }));
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ sizeBytes: content.length, signature: { verdict: 'valid' } });
    const { bitstreamId, position } = registered.body;
    const [event] = await store.readStream(`bitstream-${bitstreamId}`);
    expect(event.data).toMatchObject({ origin: { kind: 'url', ref: url }, sizeBytes: content.length });
    expect(images.reads.get('/fpga/good.gbs')).toBe(1);

    const shown = await ledger.request('GET', `/api/v1/bitstreams/${bitstreamId}`, { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(position) } });
    expect(shown.body.origin).toEqual({ kind: 'url', ref: url });
    const download = await asAdmin('GET', `/api/v1/bitstreams/${bitstreamId}/content`);
    expect([download.status, download.body.code, download.body.url]).toEqual([409, 'BITSTREAM.CONTENT_AT_ORIGIN', url]);
  });

  it('refuses a wrong sha256, a wrong size, tampered bytes, an unreachable URL and a non-http URL, recording nothing', async () => {
    const content = newImage('/fpga/checked.gbs');
    const url = images.url('/fpga/checked.gbs');
    const good = originBody(url, content, trusted.privateKey);
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...good, sha256: 'ab'.repeat(32) }), 400, 'BITSTREAM.ORIGIN_MISMATCH', { member: 'sha256' });
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...good, sizeBytes: content.length + 1 }), 400, 'BITSTREAM.ORIGIN_MISMATCH', {
      member: 'sizeBytes',
      actual: content.length,
    });
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...good, sizeBytes: content.length - 1 }), 400, 'BITSTREAM.ORIGIN_MISMATCH', {
      member: 'sizeBytes',
      actual: `more than ${content.length - 1}`,
    });
    // The store now serves other bytes of the same size under the declared sha256 and signature.
    const tampered = Buffer.from(content);
    tampered[7] ^= 0x01;
    served.set('/fpga/tampered.gbs', tampered);
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...good, url: images.url('/fpga/tampered.gbs') }), 400, 'BITSTREAM.ORIGIN_MISMATCH', { member: 'sha256' });
    // Bytes that match their declaration but not the signature.
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...originBody(images.url('/fpga/tampered.gbs'), tampered, null), signature: good.signature }), 400, 'BITSTREAM.SIGNATURE_INVALID');
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...good, url: images.url('/fpga/missing.gbs') }), 400, 'BITSTREAM.ORIGIN_UNAVAILABLE', { reason: 'answered 404' });
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...good, url: 'http://127.0.0.1:1/fpga/nothing.gbs' }), 400, 'BITSTREAM.ORIGIN_UNAVAILABLE');
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...good, url: 'file:///etc/passwd' }), 400, 'BITSTREAM.ORIGIN_INVALID', { path: 'url' });
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...good, content: content.toString('base64') }), 400, 'BITSTREAM.INVALID', { path: 'content' });
    await expectRefused(() => asAdmin('POST', '/api/v1/bitstreams', { ...good, sizeBytes: 2 * 1024 ** 3 }), 400, 'BITSTREAM.INVALID', { path: 'sizeBytes' });
  });
});
