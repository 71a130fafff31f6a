import { type CommandContext, handleCommand, type RecordedEvent } from '@ledger/eventstore';
import { type JobCommand, jobDecider, jobStream } from '@ledger/jobs';
import {
  type BitstreamCommand,
  bitstreamDecider,
  bitstreamIdOf,
  bitstreamStream,
  SIGNING_KEYS_STREAM,
  type SigningKeyCommand,
  signingKeysDecider,
} from '@ledger/programming';
import { InMemoryEventStore } from '@ledger/processing/testing';

const context: CommandContext = { actor: { user: 'alice', project: 'p1', roles: ['admin'] }, correlationId: 'wf-0196b3c2' };
const at = (seconds: number): string => new Date(Date.UTC(2026, 2, 1) + seconds * 1000).toISOString();
const id = (n: number): string => `0196b3c2-0000-7000-8000-${String(n).padStart(12, '0')}`;

export const KEY = 'ab'.repeat(32);
export const SHA_A = '0a'.repeat(32);
export const SHA_B = '0b'.repeat(32);
export const BITSTREAM_A = bitstreamIdOf(SHA_A);
export const BITSTREAM_B = bitstreamIdOf(SHA_B);
/** B is kept in an image store: registered by origin URL. */
export const ORIGIN_B = 'https://images.example.net/fpga/b.gbs';
export const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
export const REGION_0 = id(700);
export const REGION_1 = id(701);
export const JOB = { byId: id(1), byUrl: id(2), pending: id(3), other: id(4), failed: id(5), shell: id(6) } as const;

type Step = { stream: 'keys'; command: SigningKeyCommand } | { stream: 'bitstream'; command: BitstreamCommand } | { stream: 'job'; command: JobCommand };

const register = (
  sha256: string,
  signature: { verdict: 'valid'; keyId: string } | { verdict: 'unsigned' },
  seconds: number,
  originUrl: string | null = null,
): Step => ({
  stream: 'bitstream',
  command: {
    type: 'RegisterBitstream',
    sha256,
    sizeBytes: 4096,
    functionId: sha256.slice(0, 32),
    interfaceId: 'b7a6f1d0c5e44c3b8e3f2a1b0c9d8e7f',
    vendor: 'intel',
    name: null,
    signature,
    allowUnsigned: true,
    originUrl,
    registeredAt: at(seconds),
  },
});
const program = (jobId: string, region: string, image: object, seconds: number, bitstreamId?: string): Step => ({
  stream: 'job',
  command: {
    type: 'RequestJob',
    jobId,
    hostname: 'compute-1',
    kind: 'program',
    params: { deviceUuid: DEVICE, deployableUuid: region, pciAddress: '0000:5e:00.0', region: region === REGION_0 ? 'pr0' : 'pr1', image, ...(bitstreamId ? { bitstreamId } : {}) },
    requestedAt: at(seconds),
  },
});
const dispatch = (jobId: string, seconds: number): Step => ({
  stream: 'job',
  command: { type: 'DispatchJob', jobId, hostname: 'compute-1', agentBoot: null, dispatchedAt: at(seconds) },
});
const complete = (jobId: string, evidence: object, seconds: number): Step => ({ stream: 'job', command: { type: 'CompleteJob', jobId, evidence, completedAt: at(seconds) } });

/**
 * Keys trusted, revoked and trusted again; an image registered signed and
 * retired, one unsigned; program jobs that load an image named by id, one
 * loaded by url whose bytes are registered, one still waiting, one that
 * failed, a shell load (it names the device, no region: no provenance row),
 * and a job of another kind.
 */
export const bitstreamsScenario: Step[] = [
  { stream: 'keys', command: { type: 'TrustSigningKey', keyId: KEY, algorithm: 'ed25519', publicKeyPem: 'PEM', label: 'release', trustedAt: at(0) } },
  register(SHA_A, { verdict: 'valid', keyId: KEY }, 1),
  register(SHA_B, { verdict: 'unsigned' }, 2, ORIGIN_B),
  program(JOB.byId, REGION_0, { url: 'https://ledger.example/a', sha256: SHA_A }, 3, BITSTREAM_A),
  dispatch(JOB.byId, 4),
  complete(JOB.byId, { functionId: SHA_A.slice(0, 32), sha256: SHA_A, previousFunctionId: null }, 5),
  program(JOB.byUrl, REGION_1, { url: 'https://images.example/b', sha256: SHA_B }, 6),
  dispatch(JOB.byUrl, 7),
  complete(JOB.byUrl, { functionId: SHA_B.slice(0, 32), sha256: SHA_B, previousFunctionId: 'ff'.repeat(16) }, 8),
  program(JOB.pending, REGION_0, { url: 'https://images.example/b', sha256: SHA_B }, 9),
  program(JOB.failed, REGION_1, { url: 'https://images.example/b', sha256: SHA_B }, 10),
  dispatch(JOB.failed, 11),
  { stream: 'job', command: { type: 'FailJob', jobId: JOB.failed, code: 'JOB.IMAGE_CHECKSUM_MISMATCH', reason: 'bad', evidence: {}, failedAt: at(11) } as JobCommand },
  { stream: 'job', command: { type: 'RequestJob', jobId: JOB.other, hostname: 'compute-1', kind: 'configure-vfs', params: { deviceUuid: DEVICE, pciAddress: '0000:5e:00.0', numVfs: 2 }, requestedAt: at(12) } },
  dispatch(JOB.other, 13),
  complete(JOB.other, { numVfs: 2 }, 13),
  {
    stream: 'job',
    command: {
      type: 'RequestJob',
      jobId: JOB.shell,
      hostname: 'compute-1',
      kind: 'program',
      params: { deviceUuid: DEVICE, pciAddress: '0000:5e:00.0', target: 'shell', image: { url: 'https://ledger.example/a', sha256: SHA_A }, bitstreamId: BITSTREAM_A },
      requestedAt: at(13),
    },
  },
  dispatch(JOB.shell, 13),
  complete(JOB.shell, { target: 'shell', interfaceId: 'b7a6f1d0c5e44c3b8e3f2a1b0c9d8e7f', sha256: SHA_A, previousInterfaceId: null }, 13),
  { stream: 'bitstream', command: { type: 'RetireBitstream', bitstreamId: BITSTREAM_A, reason: 'superseded', retiredAt: at(14) } },
  { stream: 'keys', command: { type: 'RevokeSigningKey', keyId: KEY, revokedAt: at(15) } },
  { stream: 'keys', command: { type: 'TrustSigningKey', keyId: 'cd'.repeat(32), algorithm: 'ed25519', publicKeyPem: 'PEM2', label: null, trustedAt: at(16) } },
];

/** Runs the steps through the real deciders; a refused one fails the test setup (the scenario must be valid). */
export async function recordBitstreamsHistory(steps: readonly Step[] = bitstreamsScenario): Promise<RecordedEvent[]> {
  let tick = 0;
  const store = new InMemoryEventStore(() => new Date(Date.UTC(2026, 2, 1) + 1000 * tick++));
  for (const step of steps) {
    if (step.stream === 'keys') await handleCommand(store, SIGNING_KEYS_STREAM, signingKeysDecider, step.command, context);
    else if (step.stream === 'job') await handleCommand(store, jobStream(step.command.jobId), jobDecider, step.command, context);
    else {
      const bitstreamId = step.command.type === 'RegisterBitstream' ? bitstreamIdOf(step.command.sha256) : step.command.bitstreamId;
      await handleCommand(store, bitstreamStream(bitstreamId), bitstreamDecider, step.command, context);
    }
  }
  return (await store.readAll({ max: 100_000 })).events;
}
