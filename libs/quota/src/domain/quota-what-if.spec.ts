import { type PlacedQuotaEvent, QuotaWhatIf } from './quota-what-if';

let position = 0;
const at = (event: Omit<PlacedQuotaEvent, 'position' | 'recordedAt'>): PlacedQuotaEvent =>
  ({ ...event, position: ++position, recordedAt: `2026-11-01T10:00:${String(position).padStart(2, '0')}.000Z` }) as PlacedQuotaEvent;
const reserved = (project: string, consumerId: string, FPGA: number) => at({ type: 'quota.Reserved', data: { project, consumerId, resources: { FPGA } } });
const released = (project: string, consumerId: string) => at({ type: 'quota.Released', data: { project, consumerId, resources: {} } });
const limitSet = (project: string, limit: number) => at({ type: 'quota.LimitSet', data: { project, resource: 'FPGA', limit } });

describe('QuotaWhatIf', () => {
  it('lists the reservations a tighter policy refuses; a refused one holds nothing', () => {
    const whatIf = new QuotaWhatIf({ p1: { limits: { FPGA: 1 } } });
    for (const event of [reserved('p1', 'a', 1), reserved('p1', 'b', 1), released('p1', 'a'), reserved('p1', 'c', 1), released('p1', 'b')]) whatIf.apply(event);
    expect(whatIf.refusals).toEqual([expect.objectContaining({ consumerId: 'b', project: 'p1', resource: 'FPGA', limit: 1, inUse: 1, requested: 1 })]);
  });

  it("keeps the recorded limits of projects the policy does not name, and ignores the named ones' recorded limits", () => {
    const whatIf = new QuotaWhatIf({ p1: { limits: { FPGA: 5 } } });
    for (const event of [limitSet('p1', 0), limitSet('p2', 0), reserved('p1', 'a', 2), reserved('p2', 'b', 1)]) whatIf.apply(event);
    expect(whatIf.refusals.map((refusal) => [refusal.project, refusal.consumerId])).toEqual([['p2', 'b']]);
  });

  it('refuses a malformed policy with the offending path', () => {
    expect(() => new QuotaWhatIf({ p1: { limits: { FPGA: -1 } } })).toThrow(expect.objectContaining({ code: 'QUOTA.INVALID', facts: expect.objectContaining({ path: 'limits.FPGA' }) }));
  });
});
