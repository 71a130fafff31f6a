import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { reportFleet } from '../fixtures/cyborg-v2-fleet';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, onLedgerProcess } from '../http/ledger-server';
import { measureHttpLatency } from '../measure/http-latency';

const HOSTS = 1000;
const PAGE = 100;
const ADMIN = { user: 'admin', project: 'admin', roles: ['admin' as const] };

/** The inventory page an operator's console asks for: a page of hosts with each host's devices (at most 10 per host; the fleet's have 4–5). */
const FLEET_PAGE = `query FleetPage($after: String) {
  hosts(first: ${PAGE}, after: $after) {
    edges { node { hostname status agentStatus lastSeenAt deviceCount
      devices(first: 10) { edges { node { uuid type model pciAddress status health } } } } }
    pageInfo { endCursor hasNextPage }
  }
}`;

/**
 * GraphQL's fleet inventory page over real HTTP against a compiled ledger
 * process (embedded setup, so the sqlite pass only): 1,000 hosts reported
 * (test/support/fleet.ts), then sequential POST /graphql requests on one
 * keep-alive connection, each for one of the fleet's 10 pages of 100 hosts
 * in turn, with their devices.
 */
export const graphqlBench: BenchModule = {
  records: [
    { name: 'graphql_fleet_p50_ms', unit: 'ms', min: 0 },
    { name: 'graphql_fleet_p99_ms', unit: 'ms', min: 0 },
  ],
  run: (context) => onLedgerProcess(context, 'graphql_*', (ledger) => measureFleetPage(context, ledger)),
};

async function measureFleetPage(context: BenchContext, ledger: LedgerServer): Promise<Measurement[]> {
  const admin = ledger.token(ADMIN);
  const setup = new JsonClient(ledger.url, 16);
  const head = await reportFleet(ledger, setup, HOSTS);
  const cursors = await pageCursors(setup, admin, head);
  setup.close();
  context.progress(`graphql: ledger pid ${ledger.pid}, ${HOSTS} hosts reported, ${cursors.length} pages of ${PAGE}`);
  return ledger.profiled('graphql_fleet', () =>
    measureHttpLatency(context, ledger, 'graphql_fleet', (n) => ({
      status: 200,
      method: 'POST',
      path: '/graphql',
      token: admin,
      body: { query: FLEET_PAGE, variables: { after: cursors[n % cursors.length] } },
    })),
  );
}

/** The `after` of each page (null for the first), read once the projections hold the whole fleet; checks every page is full. */
async function pageCursors(client: JsonClient, admin: string, head: number): Promise<(string | null)[]> {
  const cursors: (string | null)[] = [null];
  for (;;) {
    const after = cursors[cursors.length - 1];
    const body = { query: FLEET_PAGE, variables: { after } };
    const reply = await client.expect(200, { method: 'POST', path: '/graphql', token: admin, body, headers: { 'x-ledger-min-position': String(head) } });
    const { data, errors } = JSON.parse(reply.text) as { data: { hosts: { edges: unknown[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } } }; errors?: unknown };
    if (errors !== undefined || data.hosts.edges.length !== PAGE) throw new Error(`the fleet page after ${after} answered ${reply.text.slice(0, 500)}`);
    if (!data.hosts.pageInfo.hasNextPage) return cursors;
    cursors.push(data.hosts.pageInfo.endCursor);
  }
}
