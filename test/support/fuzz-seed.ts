import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import fc from 'fast-check';
import type { Principal } from '@ledger/auth';
import { numericIdOf } from '@ledger/inventory';
import { hostReportBody } from './fleet';
import type { FuzzTargets } from './fuzz-requests';
import type { TestLedger, TestResponse } from './ledger-app';

/** The host the fuzz suite reports, and the device profile its requests use. */
export const FUZZ_HOST = 'compute-1';
export const FUZZ_PROFILE = 'fuzz-fpga';
/** The projects the fuzzer's callers act in: their quotas are set wide again by each seeding. */
const FUZZ_PROJECTS = ['fuzz-p1', 'fuzz-p2', 'admin'];
const WIDE_LIMIT = 1_000_000;
/** Signing keys the fuzzer's well-formed `POST /api/v1/signing-keys` bodies trust. */
const KEY_POOL = 4;

/**
 * Creates that name what the ledger holds: a schema's strings name the
 * fuzz profile once in dozens of tries, so without these almost every
 * create is refused before it reaches the domain.
 */
const CREATES: FuzzTargets['bodies'] = {
  // Limits no wider than the seeding's, never so narrow that creates stop within a batch; null lifts one.
  'PUT /api/v1/quotas/{project}': fc.record({ limits: fc.dictionary(fc.constantFrom('FPGA', 'PGPU'), fc.option(fc.integer({ min: 100, max: WIDE_LIMIT }), { nil: null }), { minKeys: 1 }) }),
  'POST /api/v1/hosts/{hostname}/heartbeat': fc.record({ agentVersion: fc.constantFrom('0.1.0', 'fuzz'), intervalSeconds: fc.integer({ min: 1, max: 3600 }), devices: fc.constant([]) }),
  'POST /api/v1/hosts/{hostname}/jobs': fc.record({ kind: fc.constant('discover'), params: fc.constant({}), timeoutSeconds: fc.integer({ min: 1, max: 600 }) }, { requiredKeys: ['kind', 'params'] }),
  'POST /v2/accelerator_requests': fc.record({ device_profile_name: fc.constant(FUZZ_PROFILE), device_profile_group_id: fc.constantFrom(0, '0') }, { requiredKeys: ['device_profile_name'] }),
  'POST /v2/device_profiles': fc
    .tuple(fc.nat(), fc.constantFrom('FPGA', 'PGPU'), fc.option(fc.string({ maxLength: 40 }), { nil: undefined }))
    .map(([serial, resourceClass, description]) => [{ name: `fuzz-made-${serial}`, groups: [{ [`resources:${resourceClass}`]: '1' }], description }]),
};

/** What stays the same for a whole fuzz run: the key that signs images, trusted by the first seeding, and the well-formed bodies. */
export interface FuzzSigning {
  readonly imageSigner: KeyObject;
  readonly bodies: FuzzTargets['bodies'];
}

/** A trusted image key, and bodies: images signed with it, and public keys to trust. */
export function fuzzSigning(): FuzzSigning {
  const imageSigner = generateKeyPairSync('ed25519');
  const pems = Array.from({ length: KEY_POOL }, () => generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString());
  const image = fc
    .record({
      content: fc.uint8Array({ minLength: 1, maxLength: 512 }),
      functionId: fc.constantFrom('9f'.repeat(16), 'a1'.repeat(16)),
      interfaceId: fc.constantFrom('f3c99413508144aabced07eb84a6d0bb', 'fuzz-shell'),
      name: fc.option(fc.constantFrom('nlb0', 'fuzz-image'), { nil: undefined }),
    })
    .map(({ content, ...described }) => ({
      content: Buffer.from(content).toString('base64'),
      signature: sign(null, Buffer.from(content), imageSigner.privateKey).toString('base64'),
      vendor: 'intel',
      ...described,
    }));
  return {
    imageSigner: imageSigner.publicKey,
    bodies: {
      'POST /api/v1/bitstreams': image,
      'POST /api/v1/signing-keys': fc.record({ publicKeyPem: fc.constantFrom(...pems), label: fc.constantFrom('fuzz', 'rotated') }),
    },
  };
}

/**
 * Puts back what the fuzzer builds on, between batches, and returns what
 * the ledger holds now. A long run otherwise uses it up: bound requests
 * hold every attach handle, devices stay disabled, the host is fenced,
 * quotas are set to 0, the profile is deleted, the host reports no devices, and creates and binds
 * stop reaching the domain. Done as the admin, outside the fuzzer's
 * requests (the oracle counts only the events of those).
 */
export async function seedFuzzTargets(ledger: TestLedger, signing: FuzzSigning, creators: readonly Principal[]): Promise<FuzzTargets> {
  const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => ledger.request(method, path, { token: ledger.adminToken, body, headers });
  const expectOk = (response: TestResponse, what: string) => {
    if (response.status >= 300) throw new Error(`fuzz seeding: ${what} answered ${response.status} ${JSON.stringify(response.body)}`);
    return response;
  };
  const unfenced = await admin('POST', `/api/v1/hosts/${FUZZ_HOST}/unfence`);
  if (unfenced.status !== 404 && unfenced.headers.get('x-error-code') !== 'INVENTORY.HOST_NOT_FENCED') expectOk(unfenced, 'unfencing the host');
  const report = expectOk(await admin('PUT', `/api/v1/hosts/${FUZZ_HOST}/report`, hostReportBody(1, 2)), 'the host report');
  const fresh = { 'x-ledger-min-position': String(report.body.position ?? 0) };
  const devices = expectOk(await admin('GET', `/api/v1/devices?hostname=${FUZZ_HOST}`, undefined, fresh), 'the devices').body.items as { uuid: string }[];
  for (const device of devices) expectOk(await admin('POST', `/api/v1/devices/${device.uuid}/enable`), 'enabling a device');
  const deployables = expectOk(await admin('GET', `/api/v1/deployables?hostname=${FUZZ_HOST}`, undefined, fresh), 'the deployables').body.items as {
    uuid: string;
    rpUuid: string;
    resourceClass: string;
  }[];
  const limits = Object.fromEntries([...new Set(deployables.map((deployable) => deployable.resourceClass))].map((resourceClass) => [resourceClass, WIDE_LIMIT]));
  for (const project of FUZZ_PROJECTS) expectOk(await admin('PUT', `/api/v1/quotas/${project}`, { limits }), 'a quota');

  const profile = await admin('GET', `/v2/device_profiles/${FUZZ_PROFILE}`, undefined, { 'openstack-api-version': 'accelerator 2.2' });
  const profileUuid: string =
    profile.status === 200
      ? profile.body.device_profile.uuid
      : expectOk(await admin('POST', '/v2/device_profiles', [{ name: FUZZ_PROFILE, groups: [{ 'resources:FPGA': '1' }] }]), 'the profile').body.uuid;

  // Every request goes, bound ones too (admin with Nova's service token), so their attach handles come back.
  const withService = { 'x-service-token': ledger.token({ user: 'fuzz-seeder', project: 'service', roles: ['service'] }) };
  const existing = expectOk(await admin('GET', '/v2/accelerator_requests'), 'the requests').body.arqs as { uuid: string }[];
  for (let at = 0; at < existing.length; at += 50) {
    const uuids = existing.slice(at, at + 50).map((arq) => arq.uuid);
    expectOk(await admin('DELETE', `/v2/accelerator_requests?arqs=${uuids.join(',')}`, undefined, withService), 'deleting requests');
  }
  const arqs: string[] = [];
  for (const creator of creators) {
    const created = expectOk(await ledger.request('POST', '/v2/accelerator_requests', { token: ledger.token(creator), body: { device_profile_name: FUZZ_PROFILE } }), 'a request');
    arqs.push(...created.body.arqs.map((arq: { uuid: string }) => arq.uuid));
  }

  const trusted = expectOk(await admin('POST', '/api/v1/signing-keys', { publicKeyPem: signing.imageSigner.export({ type: 'spki', format: 'pem' }).toString(), label: 'fuzz images' }), 'the image key');
  const atNow = { 'x-ledger-min-position': String(trusted.body.position ?? 0) };
  const bitstreams = expectOk(await admin('GET', '/api/v1/bitstreams', undefined, atNow), 'the bitstreams').body as { bitstreamId: string }[];
  const keys = expectOk(await admin('GET', '/api/v1/signing-keys', undefined, atNow), 'the signing keys').body as { keyId: string }[];
  const attributes = expectOk(await admin('GET', '/v2/attributes'), 'the attributes').body.attributes as { uuid: string }[];
  const reactors = expectOk(await admin('GET', '/api/v1/reactors'), 'the reactors').body.items as { name: string }[];
  const jobs = expectOk(await admin('GET', `/api/v1/jobs?hostname=${FUZZ_HOST}&limit=50`), 'the jobs').body.items as { jobId: string }[];
  const bindTargets = deployables.filter((deployable) => deployable.resourceClass === 'FPGA').map((deployable) => ({ hostname: FUZZ_HOST, rp: deployable.rpUuid }));
  return {
    known: [
      FUZZ_HOST, 'compute-2', ...FUZZ_PROJECTS, FUZZ_PROFILE, 'FPGA', 'latest', '1', '0',
      profileUuid,
      ...arqs,
      ...devices.map((device) => device.uuid),
      ...deployables.flatMap((deployable) => [deployable.uuid, deployable.rpUuid]),
      ...attributes.map((attribute) => attribute.uuid),
      ...bitstreams.map((bitstream) => bitstream.bitstreamId),
      ...keys.map((key) => key.keyId),
      ...reactors.map((reactor) => reactor.name),
    ].filter((value): value is string => typeof value === 'string'),
    collections: {
      hosts: [FUZZ_HOST],
      devices: devices.map((device) => device.uuid),
      deployables: deployables.map((deployable) => deployable.uuid),
      accelerator_requests: arqs,
      device_profiles: [profileUuid, FUZZ_PROFILE],
      attributes: attributes.map((attribute) => attribute.uuid),
      jobs: jobs.map((job) => job.jobId),
      bitstreams: bitstreams.map((bitstream) => bitstream.bitstreamId),
      'signing-keys': keys.map((key) => key.keyId),
      reactors: reactors.map((reactor) => reactor.name),
      quotas: FUZZ_PROJECTS,
    },
    arqs,
    bindTargets,
    bodies: {
      ...signing.bodies,
      ...CREATES,
      'POST /v2/attributes': fc.record({
        deployable_id: fc.constantFrom(...deployables.map((deployable) => numericIdOf(deployable.uuid))),
        key: fc.nat().map((serial) => `fuzz_${serial}`),
        value: fc.constantFrom('a', 'b'),
      }),
    },
  };
}
