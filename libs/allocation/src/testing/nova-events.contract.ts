import { ReactorRejectedError, ReactorUnavailableError } from '@ledger/processing';
import type { NovaEvents } from '../application/nova/nova-events.port';
import type { AcceleratorRequestBound } from '../domain/nova-notice';

/** A NovaEvents adapter wired to a Nova the test controls. */
export interface NovaEventsHarness {
  readonly nova: NovaEvents;
  /** Makes Nova answer every post with this status from now on. */
  respondWith(status: number): void;
  /** The posts Nova accepted, repeats of one key dropped. */
  accepted(): { key: string; events: readonly AcceleratorRequestBound[] }[];
  /** Ends the harness (closes a server). */
  dispose(): Promise<void>;
}

/** What every NovaEvents adapter must do, run against each (as the event store's contract is). */
export function novaEventsContract(name: string, open: () => Promise<NovaEventsHarness>): void {
  describe(`NovaEvents contract: ${name}`, () => {
    let harness: NovaEventsHarness;
    beforeEach(async () => {
      harness = await open();
    });
    afterEach(() => harness.dispose());

    const notice: AcceleratorRequestBound[] = [
      { instanceUuid: '7c3a39a0-9a6b-4c4e-bd2e-8b0d4f0f9a01', arqUuid: 'a1f0c0de-0000-4000-8000-000000000001', status: 'completed' },
      { instanceUuid: '7c3a39a0-9a6b-4c4e-bd2e-8b0d4f0f9a01', arqUuid: 'a1f0c0de-0000-4000-8000-000000000002', status: 'failed' },
    ];
    const key = '01936f4e-8d2a-7b1c-9e3f-0123456789ab';

    it('delivers the events, and a redelivery under the same key is recognisable as one', async () => {
      await harness.nova.acceleratorRequestsBound(notice, { key });
      await harness.nova.acceleratorRequestsBound(notice, { key });
      expect(harness.accepted()).toEqual([{ key, events: notice }]);
    });

    it("counts a 207 (Nova cannot route an event yet) as accepted: Nova polls", async () => {
      harness.respondWith(207);
      await expect(harness.nova.acceleratorRequestsBound(notice, { key })).resolves.toBeUndefined();
    });

    it.each([500, 503, 429, 401, 403])('reports %i as Nova unavailable', async (status) => {
      harness.respondWith(status);
      await expect(harness.nova.acceleratorRequestsBound(notice, { key })).rejects.toBeInstanceOf(ReactorUnavailableError);
      expect(harness.accepted()).toEqual([]);
    });

    it.each([400, 404])('reports %i as a rejected notice', async (status) => {
      harness.respondWith(status);
      await expect(harness.nova.acceleratorRequestsBound(notice, { key })).rejects.toBeInstanceOf(ReactorRejectedError);
    });
  });
}
