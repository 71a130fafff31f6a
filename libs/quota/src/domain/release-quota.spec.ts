import type { ReleaseQuota } from './quota.commands';
import { quotaDecider } from './quota.decider';
import { deciderSpec } from '@ledger/eventstore/testing';
import { limitSet, released, reserved } from './testing/quota-events';

const spec = deciderSpec(quotaDecider);
const release = (...consumerIds: string[]): ReleaseQuota => ({ type: 'ReleaseQuota', project: 'p1', consumerIds });

describe('quotaDecider: ReleaseQuota', () => {
  const history = [limitSet('FPGA', 2), reserved('arq-1', { FPGA: 1, 'capacity:memoryGiB': 8 }), reserved('arq-2', { FPGA: 1 })];

  it('releases what each consumer holds and frees it for others', () => {
    spec.given(history).when(release('arq-1')).then([released('arq-1', { FPGA: 1, 'capacity:memoryGiB': 8 })]);
    const after = spec.given([...history, released('arq-1', { FPGA: 1, 'capacity:memoryGiB': 8 })]);
    expect(after.state.usage).toEqual({ FPGA: 1 });
    expect(after.state.reservations.size).toBe(1);
    after.when({ type: 'ReserveQuota', project: 'p1', consumers: [{ consumerId: 'arq-3', resources: { FPGA: 1 } }] }).then([
      reserved('arq-3', { FPGA: 1 }),
    ]);
  });

  it('ignores unknown, already released and repeated ids', () => {
    spec.given(history).when(release('arq-9')).then([]);
    spec.given([...history, released('arq-2', { FPGA: 1 })]).when(release('arq-2')).then([]);
    spec.given(history).when(release('arq-2', 'arq-2', 'arq-9', 'arq-1')).then([
      released('arq-2', { FPGA: 1 }),
      released('arq-1', { FPGA: 1, 'capacity:memoryGiB': 8 }),
    ]);
    spec.given(history).when(release()).then([]);
  });

  it('refuses malformed ids and more than 256 at once', () => {
    spec.given(history).when(release('arq-1', 'arq/2')).thenThrows('QUOTA.INVALID', { path: 'consumerIds[1]' });
    spec.given(history).when(release(...Array.from({ length: 257 }, (_, i) => `arq-${i}`))).thenThrows('QUOTA.INVALID', { path: 'consumerIds' });
    spec
      .given(history)
      .when({ type: 'ReleaseQuota', project: 'p1', consumerIds: 'arq-1' } as unknown as ReleaseQuota)
      .thenThrows('QUOTA.INVALID', { path: 'consumerIds' });
  });
});
