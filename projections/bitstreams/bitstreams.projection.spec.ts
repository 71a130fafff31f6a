import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { everyBatchTwice, inBatchesOf, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { BitstreamQueries } from './bitstreams.queries';
import { bitstreamsProjection } from './bitstreams.projection';
import { applyBitstreamBatches, buildBitstreams, snapshotBitstreams } from './testing/bitstreams-batches';
import { BITSTREAM_A, BITSTREAM_B, DEVICE, JOB, KEY, ORIGIN_B, recordBitstreamsHistory, REGION_0, REGION_1, SHA_A, SHA_B } from './testing/bitstreams-history';

describe('bitstreamsProjection (SQLite :memory:)', () => {
  let db: SqlDatabase;

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
  });
  afterEach(() => db.close());

  it('reads programming events and the jobs events that tell what was loaded', () => {
    expect(bitstreamsProjection).toMatchObject({ name: 'bitstreams', version: 1, filter: { categories: ['bitstream', 'signing', 'job'] } });
    expect([...bitstreamsProjection.handles].sort()).toEqual([
      'jobs.JobCompleted',
      'jobs.JobRequested',
      'programming.BitstreamRegistered',
      'programming.BitstreamRetired',
      'programming.SigningKeyRevoked',
      'programming.SigningKeyTrusted',
    ]);
  });

  it('lists images with their verdict as it stands now and their state, and keys trusted or revoked', async () => {
    await applyBitstreamBatches(db, oneBatch(await recordBitstreamsHistory()));
    const queries = new BitstreamQueries(db);
    expect((await queries.listBitstreams()).map((b) => [b.bitstreamId, b.state, b.signature, b.origin])).toEqual([
      // KEY is revoked at the end of the history: the image it signed shows so.
      [BITSTREAM_A, 'retired', { verdict: 'revoked', keyId: KEY }, { kind: 'stored', ref: `sha256:${SHA_A}` }],
      [BITSTREAM_B, 'registered', { verdict: 'unsigned' }, { kind: 'url', ref: ORIGIN_B }],
    ]);
    expect((await queries.listBitstreams({ live: true })).map((b) => b.bitstreamId)).toEqual([BITSTREAM_B]);
    expect((await queries.listBitstreams({ functionId: SHA_A.slice(0, 32).toUpperCase() })).map((b) => b.bitstreamId)).toEqual([BITSTREAM_A]);
    expect(await queries.getBitstream(BITSTREAM_A.toUpperCase())).toMatchObject({
      sha256: SHA_A,
      sizeBytes: 4096,
      interfaceId: 'b7a6f1d0c5e44c3b8e3f2a1b0c9d8e7f',
      vendor: 'intel',
      registeredBy: 'alice',
      retireReason: 'superseded',
      retiredAt: '2026-03-01T00:00:14.000Z',
    });
    expect(await queries.getBitstream('0196b3c2-0000-7000-8000-000000000999')).toBeUndefined();
    expect((await queries.listSigningKeys()).map((k) => [k.keyId, k.state])).toEqual([
      [KEY, 'revoked'],
      ['cd'.repeat(32), 'trusted'],
    ]);
  });

  it("tells each region's loads, newest first: the image by id or by its bytes, the job, the correlation and the project", async () => {
    await applyBitstreamBatches(db, oneBatch(await recordBitstreamsHistory()));
    const provenance = await new BitstreamQueries(db).provenance(DEVICE.toUpperCase());
    expect(provenance).toEqual([
      {
        deployableUuid: REGION_1,
        region: 'pr1',
        bitstreamId: BITSTREAM_B,
        sha256: SHA_B,
        functionId: SHA_B.slice(0, 32),
        previousFunctionId: 'ff'.repeat(16),
        loadedAt: '2026-03-01T00:00:08.000Z',
        jobId: JOB.byUrl,
        hostname: 'compute-1',
        correlationId: 'wf-0196b3c2',
        project: 'p1',
        requestedBy: 'alice',
      },
      expect.objectContaining({ deployableUuid: REGION_0, region: 'pr0', bitstreamId: BITSTREAM_A, jobId: JOB.byId, functionId: SHA_A.slice(0, 32) }),
    ]);
    expect(await new BitstreamQueries(db).provenance('0196b3c2-0000-7000-8000-000000000999')).toEqual([]);
  });

  it('builds the same tables one event per batch, in one batch, every batch twice, and split anywhere', async () => {
    const events = await recordBitstreamsHistory();
    const expected = await buildBitstreams(onePerBatch(events));
    expect(expected.bs_program_jobs).toHaveLength(4);
    expect(await buildBitstreams(oneBatch(events))).toEqual(expected);
    expect(await buildBitstreams(everyBatchTwice(onePerBatch(events)))).toEqual(expected);
    expect(await buildBitstreams(everyBatchTwice(inBatchesOf(3, events)))).toEqual(expected);
    for (let split = 1; split < events.length; split++) {
      expect(await buildBitstreams([events.slice(0, split + 1), events.slice(split - 1)])).toEqual(expected);
    }
  });

  it('empties its tables on reset', async () => {
    await applyBitstreamBatches(db, oneBatch(await recordBitstreamsHistory()));
    await db.transaction((tx) => bitstreamsProjection.reset(tx));
    expect(Object.values(await snapshotBitstreams(db)).every((rows) => rows.length === 0)).toBe(true);
  });
});
