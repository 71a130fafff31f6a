import type { ArqState, LiveArq } from './arq.state';
import { novaNotice } from './nova-notice';

const live = (uuid: string, state: LiveArq['state'], instanceUuid: string | null): ArqState => ({
  status: 'live',
  uuid,
  projectId: 'p1',
  deviceProfileUuid: 'dp',
  deviceProfileName: 'fpga-dp',
  groupId: 0,
  resourceClass: 'FPGA',
  requiredTraits: [],
  forbiddenTraits: [],
  state,
  binding: instanceUuid ? { hostname: 'compute-1', deviceRpUuid: 'rp', instanceUuid, deviceUuid: 'd', deployableUuid: 'dep' } : null,
  attachHandle: null,
  failure: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: null,
});

describe('novaNotice', () => {
  it('says nothing while a request of the instance is still binding', () => {
    expect(novaNotice('i-1', [live('a', 'Bound', 'i-1'), live('b', 'BindStarted', 'i-1')])).toEqual([]);
  });

  it('tells every request of the instance once all are resolved, in uuid order, ignoring other instances and deleted ones', () => {
    const requests = [live('b', 'BindFailed', 'i-1'), live('a', 'Bound', 'i-1'), live('c', 'BindStarted', 'i-2'), live('d', 'Unbound', null), { status: 'deleted' as const, uuid: 'e' }];
    expect(novaNotice('i-1', requests)).toEqual([
      { instanceUuid: 'i-1', arqUuid: 'a', status: 'completed' },
      { instanceUuid: 'i-1', arqUuid: 'b', status: 'failed' },
    ]);
  });

  it('says nothing about an instance with no request bound to it', () => {
    expect(novaNotice('i-1', [live('a', 'Bound', 'i-2')])).toEqual([]);
  });
});
