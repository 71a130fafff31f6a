import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '../envelope';
import { appendCheckpointLine, appendRollbackAcceptanceLine, readCheckpointLines } from './checkpoint-files';
import { signCheckpoint } from './head-checkpoint';
import { HeadCheckpointer } from './head-checkpointer';
import { signRollbackAcceptance } from './rollback-acceptance';

const keys = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const hashAt = (position: number) => `hash-${position}`;

/** A store whose head the test moves; it answers the head event's hash, all the checkpointer reads. */
function storeAt(head: { position: number }) {
  return {
    headPosition: async () => head.position,
    readAll: async () => ({ events: [{ position: head.position, hash: hashAt(head.position) } as RecordedEvent], position: head.position }),
  };
}

describe('HeadCheckpointer on a store cut below its signed head', () => {
  let dir: string;
  let file: string;
  let publishFile: string;
  const head = { position: 13 };
  const checkpointer = () => new HeadCheckpointer({ store: storeAt(head), keys, file, publishFile, clock: () => new Date('2026-11-28T22:00:00.000Z') });
  const signedAt22 = () => signCheckpoint({ position: 22, hash: hashAt(22), at: '2026-11-28T21:55:16.000Z' }, keys.privateKey);
  const acceptance = (privateKey = keys.privateKey) =>
    signRollbackAcceptance({ to: 13, signedHead: 22, by: 'ops-alice', reason: 'restored the backup', at: '2026-11-28T22:01:00.000Z' }, privateKey);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'head-checkpointer-'));
    file = join(dir, 'checkpoints.jsonl');
    publishFile = join(dir, 'published.jsonl');
    head.position = 13;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to sign below the signed head, with a stable code naming both heads', async () => {
    appendCheckpointLine(file, signedAt22());
    const signer = checkpointer();
    await expect(signer.checkpoint()).rejects.toMatchObject({ code: 'AUDIT.LOG_CUT_BELOW_SIGNED_HEAD', facts: { storeHead: 13, signedHead: 22 } });
    expect(await signer.cut()).toEqual({ storeHead: 13, signedHead: 22, signedAt: '2026-11-28T21:55:16.000Z' });
    expect(readCheckpointLines(file).map((checkpoint) => checkpoint.position)).toEqual([22]);
  });

  it('knows the signed head from the published copy too, when the data dir lost it', async () => {
    appendCheckpointLine(publishFile, signedAt22());
    await expect(checkpointer().checkpoint()).rejects.toMatchObject({ code: 'AUDIT.LOG_CUT_BELOW_SIGNED_HEAD' });
    expect(readCheckpointLines(file)).toEqual([]);
  });

  it('after an accepted rollback: ready, still nothing signed until the head passes the signed head', async () => {
    appendCheckpointLine(file, signedAt22());
    const signer = checkpointer();
    await expect(signer.checkpoint()).rejects.toThrow();
    appendRollbackAcceptanceLine(file, acceptance());
    expect((await signer.cut())?.accepted).toMatchObject({ to: 13, by: 'ops-alice', reason: 'restored the backup' });
    head.position = 20;
    expect(await signer.checkpoint()).toBeUndefined();
    head.position = 23;
    expect(await signer.checkpoint()).toMatchObject({ position: 23, hash: hashAt(23) });
    expect(readCheckpointLines(file).map((checkpoint) => checkpoint.position)).toEqual([22, 23]);
  });

  it('an acceptance not signed with the checkpoint key, or one for a head the store no longer has, accepts nothing', async () => {
    appendCheckpointLine(file, signedAt22());
    appendRollbackAcceptanceLine(file, acceptance(stranger.privateKey));
    await expect(checkpointer().checkpoint()).rejects.toMatchObject({ code: 'AUDIT.LOG_CUT_BELOW_SIGNED_HEAD' });
    appendRollbackAcceptanceLine(file, acceptance());
    head.position = 12;
    await expect(checkpointer().checkpoint()).rejects.toMatchObject({ code: 'AUDIT.LOG_CUT_BELOW_SIGNED_HEAD', facts: { storeHead: 12 } });
  });
});
