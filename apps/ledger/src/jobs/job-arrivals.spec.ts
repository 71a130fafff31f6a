import { ArrivalTicket } from './job-arrivals';

describe('ArrivalTicket', () => {
  const never = new AbortController().signal;
  let closed: ArrivalTicket[];
  let ticket: ArrivalTicket;

  beforeEach(() => {
    closed = [];
    ticket = new ArrivalTicket((which) => closed.push(which));
  });

  it('keeps an arrival that came before the wait, so a job requested during a poll\'s query is not missed', async () => {
    ticket.arrive(7, 'job-7');
    ticket.arrive(5);
    await expect(ticket.wait(60_000, never)).resolves.toEqual({ position: 7, jobIds: ['job-7'] });
  });

  it('wakes a waiting poll at once, and answers each arrival once', async () => {
    const waiting = ticket.wait(60_000, never);
    ticket.arrive(9);
    await expect(waiting).resolves.toEqual({ position: 9, jobIds: [] });
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

  it('tells its owner when closed', () => {
    ticket.close();
    expect(closed).toEqual([ticket]);
  });
});
