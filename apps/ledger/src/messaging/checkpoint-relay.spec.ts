import { generateKeyPairSync } from 'node:crypto';
import { checkpointsTopic } from '@ledger/contracts';
import { type SignedCheckpoint, signCheckpoint, signRollbackAcceptance } from '@ledger/eventstore';
import { InMemoryMessageBroker } from '@ledger/messaging/testing';
import { CheckpointRelay } from './checkpoint-relay';

const { privateKey } = generateKeyPairSync('ed25519');
const checkpoint = (position: number): SignedCheckpoint => signCheckpoint({ position, hash: 'a'.repeat(64), at: '2026-11-29T02:00:00.000Z' }, privateKey);
const acceptance = signRollbackAcceptance({ to: 15, signedHead: 30, by: 'ops-alice', reason: 'restored the backup', at: '2026-11-29T02:04:00.000Z' }, privateKey);

describe('CheckpointRelay', () => {
  it("sends an accepted rollback to the checkpoints topic as its checkpoint-file line, in order with the checkpoints, once Kafka is back", async () => {
    const broker = new InMemoryMessageBroker();
    const relay = new CheckpointRelay(broker, 'ledger', checkpoint(30));
    broker.down = true;
    await expect(relay.relay(undefined, acceptance)).rejects.toThrow();
    broker.down = false;
    await relay.relay(checkpoint(40));
    expect(broker.topic(checkpointsTopic('ledger')).map((message) => [message.key, message.value])).toEqual([
      ['head', JSON.stringify(checkpoint(30))],
      ['head', JSON.stringify({ rollbackAccepted: acceptance })],
      ['head', JSON.stringify(checkpoint(40))],
    ]);
  });
});
