import type { JobOffer } from '@ledger/jobs';
import { ArrivalTicket } from './job-arrivals';

describe('ArrivalTicket', () => {
  const never = new AbortController().signal;
  let closed: ArrivalTicket[];
  let ticket: ArrivalTicket;

  beforeEach(() => {
    closed = [];
    ticket = new ArrivalTicket('boot-1', (which) => closed.push(which));
  });

  it('keeps an arrival that came before the wait, so a job requested during a poll\'s query is not missed', async () => {
    ticket.arrive(7, 'job-7');
    ticket.arrive(5);
    await expect(ticket.wait(60_000, never)).resolves.toEqual({ handed: [], position: 7, jobIds: ['job-7'] });
  });

  it('wakes a waiting poll at once, and answers each arrival once', async () => {
    const waiting = ticket.wait(60_000, never);
    ticket.arrive(9);
    await expect(waiting).resolves.toEqual({ handed: [], position: 9, jobIds: [] });
    await expect(ticket.wait(1, never)).resolves.toBeUndefined();
  });

  it('ends the wait when the agent hangs up or the ledger shuts down', async () => {
    const hangUp = new AbortController();
    const waiting = ticket.wait(60_000, hangUp.signal);
    hangUp.abort();
    await expect(waiting).resolves.toBeUndefined();

    const untilShutdown = ticket.wait(60_000, never);
    ticket.end();
    await expect(untilShutdown).resolves.toBeUndefined();
    expect(ticket.ended).toBe(true);
    await expect(ticket.wait(60_000, never)).resolves.toBeUndefined();
  });

  describe('set aside for a job request', () => {
    const offer: JobOffer = { jobId: 'job-1', kind: 'carve', params: {}, timeoutSeconds: 120, requestedAt: '2026-11-29T00:00:00.000Z', attempt: 1 };

    it('is set aside only while it waits, and only once', async () => {
      expect(ticket.reserve()).toBe(false);
      const waiting = ticket.wait(60_000, never);
      expect(ticket.reserve()).toBe(true);
      expect(ticket.reserve()).toBe(false);
      ticket.hand(offer);
      await expect(waiting).resolves.toEqual({ handed: [offer], position: 0, jobIds: [] });
    });

    it('answers with the job handed to it, not again by the id its request announced', async () => {
      const waiting = ticket.wait(60_000, never);
      ticket.reserve();
      // The request's notice comes as its append commits, before the hand-off.
      ticket.arrive(12, 'job-1');
      ticket.arrive(13, 'job-2');
      ticket.hand(offer);
      await expect(waiting).resolves.toEqual({ handed: [offer], position: 13, jobIds: ['job-2'] });
    });

    afterEach(() => jest.useRealTimers());

    it('does not end its wait while set aside, whatever comes: its timeout, the agent hanging up, the shutdown', async () => {
      jest.useFakeTimers();
      const hangUp = new AbortController();
      let settled = false;
      const waiting = ticket.wait(1_000, hangUp.signal).then((arrival) => {
        settled = true;
        return arrival;
      });
      ticket.reserve();
      jest.advanceTimersByTime(2_000);
      hangUp.abort();
      ticket.end();
      await Promise.resolve();
      expect(settled).toBe(false);
      ticket.hand(offer);
      await expect(waiting).resolves.toEqual({ handed: [offer], position: 0, jobIds: [] });
    });

    it('waits on once released with nothing, and ends then if its wait was to end meanwhile', async () => {
      const waiting = ticket.wait(60_000, never);
      ticket.reserve();
      ticket.release();
      ticket.arrive(4);
      await expect(waiting).resolves.toEqual({ handed: [], position: 4, jobIds: [] });

      jest.useFakeTimers();
      const timedOut = ticket.wait(1_000, never);
      ticket.reserve();
      jest.advanceTimersByTime(2_000);
      ticket.release();
      await expect(timedOut).resolves.toBeUndefined();
    });
  });

  it('tells its owner when closed', () => {
    ticket.close();
    expect(closed).toEqual([ticket]);
  });
});
