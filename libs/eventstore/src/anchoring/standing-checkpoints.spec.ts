import { generateKeyPairSync } from 'node:crypto';
import type { RecordedEvent } from '../envelope';
import { chainHash, contentHash, GENESIS_HASH } from '../hash-chain/hash-chain';
import { AnchoredVerifier } from './anchored-verifier';
import { type SignedCheckpoint, signCheckpoint } from './head-checkpoint';
import { signRollbackAcceptance } from './rollback-acceptance';
import { standingCheckpoints, verifyAgainstRecords } from './standing-checkpoints';

const keys = generateKeyPairSync('ed25519');
const metadata = { correlationId: 'c', causationId: null, actor: { user: 'u', project: 'p', roles: ['admin'] }, schemaVersion: 1 };

/** `length` events chained from the genesis; `era` tells two histories of the same positions apart. */
function chained(length: number, era: string, from: readonly RecordedEvent[] = []): RecordedEvent[] {
  const events = [...from];
  for (let position = from.length + 1; position <= length; position++) {
    const prevHash = events.at(-1)?.hash ?? GENESIS_HASH;
    const content = { id: `${era}-${position}`, type: 'inventory.DeviceHealthChanged', recordedAt: '2026-11-29T01:00:00.000Z', data: { era }, metadata };
    events.push({ ...content, stream: 'device-1', version: position, position, prevHash, hash: chainHash(prevHash, position, 'device-1', position, contentHash(content)) });
  }
  return events;
}

const at = (minute: number) => `2026-11-29T02:${String(minute).padStart(2, '0')}:00.000Z`;
const signed = (log: readonly RecordedEvent[], position: number, minute: number): SignedCheckpoint =>
  signCheckpoint({ position, hash: log[position - 1].hash, at: at(minute) }, keys.privateKey);

/** Signed at 10, 20 and 30; then the store was put back to a backup of position 15, accepted, and new events took positions 16–35 (signed at 35). */
const before = chained(30, 'before');
const after = chained(35, 'after', before.slice(0, 15));
const OLD = [signed(before, 10, 1), signed(before, 20, 2), signed(before, 30, 3)];
const acceptance = signRollbackAcceptance({ to: 15, signedHead: 30, by: 'ops-alice', reason: 'restored the backup', at: at(4) }, keys.privateKey);
const NEW = signed(after, 35, 5);

async function verify(log: readonly RecordedEvent[], checkpoints: readonly SignedCheckpoint[]) {
  const verifier = new AnchoredVerifier(checkpoints, keys.publicKey);
  for (const event of log) if (!verifier.check(event)) break;
  return verifier.verdict();
}

describe('standingCheckpoints', () => {
  it('without the acceptance, the log after an accepted rollback reads as rewritten (the defect an acceptance answers)', async () => {
    expect((await verify(after, [...OLD, NEW])).firstBreak).toMatchObject({ position: 20, reason: 'checkpoint-mismatch' });
    expect((await verify(after.slice(0, 15), OLD)).firstBreak).toMatchObject({ position: 16, reason: 'truncated' });
  });

  it('gives up the checkpoints above the accepted head signed before the acceptance, and names the rollback', async () => {
    const standing = standingCheckpoints({ checkpoints: [...OLD, NEW], acceptances: [acceptance] }, keys.publicKey);
    expect(standing.checkpoints.map((checkpoint) => checkpoint.position)).toEqual([10, 35]);
    const verdict = await verifyAgainstRecords({ checkpoints: [...OLD, NEW], acceptances: [acceptance] }, keys.publicKey, (checkpoints) => verify(after, checkpoints));
    expect(verdict).toMatchObject({ ok: true, checked: 35, anchor: { position: 35 }, rollbacks: [{ to: 15, signedHead: 30, by: 'ops-alice', reason: 'restored the backup', at: at(4) }] });
  });

  it('lets a store still at the accepted head verify, anchored below it', async () => {
    const verdict = await verifyAgainstRecords({ checkpoints: OLD, acceptances: [acceptance] }, keys.publicKey, (checkpoints) => verify(after.slice(0, 15), checkpoints));
    expect(verdict).toMatchObject({ ok: true, headPosition: 15, anchor: { position: 10 }, unanchored: 5 });
  });

  it('keeps checkpoints signed after the acceptance: a later rewrite of the new history is still caught', async () => {
    const rewritten = chained(35, 'forged', after.slice(0, 17));
    const verdict = await verifyAgainstRecords({ checkpoints: [...OLD, signed(after, 20, 5)], acceptances: [acceptance] }, keys.publicKey, (checkpoints) => verify(rewritten, checkpoints));
    expect(verdict.firstBreak).toMatchObject({ position: 20, reason: 'checkpoint-mismatch' });
  });

  it('ignores an acceptance the key did not sign, and gives up nothing without a key', async () => {
    const forged = { ...acceptance, by: 'mallory' };
    const records = { checkpoints: [...OLD, NEW], acceptances: [forged] };
    expect(standingCheckpoints(records, keys.publicKey)).toEqual({ checkpoints: [...OLD, NEW], rollbacks: [] });
    expect((await verifyAgainstRecords(records, keys.publicKey, (checkpoints) => verify(after, checkpoints))).firstBreak).toMatchObject({ reason: 'checkpoint-mismatch' });
    expect(standingCheckpoints({ checkpoints: OLD, acceptances: [acceptance] }, undefined)).toEqual({ checkpoints: OLD, rollbacks: [] });
  });
});
