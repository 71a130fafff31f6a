// The fleet: hosts with their agents (up / lost), and each host's devices
// with health and telemetry sparklines, a page of hosts at a time.
import { graphql, rest } from './api.js';
import { badge, fill, h, table, time } from './dom.js';
import { startPage } from './layout.js';
import { remember, sparklinesOf } from './sparkline.js';

const HOSTS_PER_PAGE = 50;

const QUERY = `query Fleet($after: String, $first: Int!) {
  all: hosts(first: 1000) { edges { node { agentStatus } } pageInfo { hasNextPage } }
  page: hosts(first: $first, after: $after) {
    edges { node {
      hostname status agentStatus lastSeenAt lastReportAt deviceCount
      devices(first: 20) { edges { node { uuid type model pciAddress status health healthReason } } }
    } }
    pageInfo { endCursor hasNextPage }
  }
}`;

/** Cursors of the pages before this one, and this page's: Back pops, Next pushes. */
const cursors = [null];
let nextCursor = null;
let refresh;
/** A slow round of telemetry calls is not stacked with the next poll's. */
let telemetryPending = false;

function summary(all) {
  const count = (status) => all.edges.filter((edge) => edge.node.agentStatus === status).length;
  const total = `${all.edges.length}${all.pageInfo.hasNextPage ? '+' : ''}`;
  return h(
    'dl',
    { class: 'summary', 'data-testid': 'fleet-summary' },
    h('dt', {}, 'Hosts'), h('dd', { 'data-testid': 'host-count' }, total),
    h('dt', {}, 'Agents up'), h('dd', { 'data-testid': 'agents-up' }, count('up')),
    h('dt', {}, 'Agents lost'), h('dd', { 'data-testid': 'agents-lost' }, count('lost')),
  );
}

/**
 * Each up host's latest telemetry (a lost or silent host has none worth
 * drawing), one call per host, drawn into the rows once it is in: the hosts
 * show first, the sparklines follow.
 */
async function fillTelemetry(live, hosts) {
  const up = hosts.filter((host) => host.agentStatus === 'up');
  const answers = await Promise.all(up.map((host) => rest('GET', `/api/v1/hosts/${encodeURIComponent(host.hostname)}/telemetry`).catch(() => null)));
  for (const sample of answers.flatMap((answer) => answer?.devices ?? [])) {
    const item = live.querySelector(`li[data-device="${CSS.escape(sample.deviceUuid)}"]`);
    if (!item) continue;
    for (const [metric, value] of Object.entries(sample.telemetry ?? {})) if (typeof value === 'number') remember(sample.deviceUuid, metric, value);
    fill(item.querySelector('.health'), badge(sample.health));
    item.querySelector('.health').title = sample.healthReason ?? '';
    fill(item.querySelector('.telemetry'), metricsOf(sample.deviceUuid));
  }
}

const metricsOf = (device) => sparklinesOf(device).map((line) => h('span', { class: 'metric' }, h('small', {}, line.dataset.metric), line));

function deviceList(host) {
  return h(
    'ul',
    { class: 'devices' },
    host.devices.edges.map(({ node: device }) =>
      h(
        'li',
        { 'data-device': device.uuid },
        h('a', { href: `/console/device.html?uuid=${encodeURIComponent(device.uuid)}` }, `${device.type} ${device.model}`),
        ' ', h('code', {}, device.pciAddress), ' ', badge(device.status), ' ',
        h('span', { class: 'health', title: device.healthReason ?? '' }, badge(device.health)), ' ',
        h('span', { class: 'telemetry' }, metricsOf(device.uuid)),
      ),
    ),
  );
}

async function render(live) {
  const data = await graphql(QUERY, { first: HOSTS_PER_PAGE, after: cursors.at(-1) });
  const hosts = data.page.edges.map((edge) => edge.node);
  nextCursor = data.page.pageInfo.hasNextPage ? data.page.pageInfo.endCursor : null;
  const rows = hosts.map((host) =>
    h(
      'tr',
      { 'data-host': host.hostname },
      h('th', { scope: 'row' }, host.hostname),
      h('td', {}, badge(host.agentStatus)),
      h('td', {}, badge(host.status)),
      h('td', {}, time(host.lastSeenAt)),
      h('td', {}, host.deviceCount),
      h('td', {}, deviceList(host)),
    ),
  );
  fill(
    live,
    summary(data.all),
    hosts.length === 0 ? h('p', { class: 'empty' }, 'No host has reported yet.') : table(['Host', 'Agent', 'Status', 'Last seen', 'Devices', 'Devices: status, health, telemetry'], rows, { 'data-testid': 'hosts' }),
    h(
      'p',
      { class: 'pager' },
      h('button', { type: 'button', disabled: cursors.length === 1, onclick: () => (cursors.pop(), refresh()) }, 'Previous hosts'),
      h('button', { type: 'button', disabled: nextCursor === null, onclick: () => (cursors.push(nextCursor), refresh()) }, 'Next hosts'),
    ),
  );
  if (telemetryPending) return;
  telemetryPending = true;
  void fillTelemetry(live, hosts).finally(() => {
    telemetryPending = false;
    // The render benchmark's second figure: when the first page's sparklines were all drawn.
    if (!document.body.dataset.telemetry) performance.mark('console-telemetry');
    document.body.dataset.telemetry = 'drawn';
  });
}

refresh = startPage({ title: 'Fleet', render });
