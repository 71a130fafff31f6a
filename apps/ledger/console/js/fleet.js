// The fleet: hosts with their agents (up / lost), and each host's devices
// with health and telemetry sparklines, a page of hosts at a time.
import { graphql, rest } from './api.js';
import { badge, fill, h, table, time } from './dom.js';
import { startPage } from './layout.js';
import { remember, sparkline } from './sparkline.js';

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

/** Each up host's latest telemetry, by device uuid (a lost or silent host has none worth drawing). */
async function telemetryOf(hosts) {
  const up = hosts.filter((host) => host.agentStatus === 'up');
  const answers = await Promise.all(up.map((host) => rest('GET', `/api/v1/hosts/${encodeURIComponent(host.hostname)}/telemetry`).catch(() => null)));
  const byDevice = new Map();
  for (const answer of answers) for (const device of answer?.devices ?? []) byDevice.set(device.deviceUuid, device);
  return byDevice;
}

function sparklines(device, sample) {
  if (!sample) return '—';
  return Object.entries(sample.telemetry ?? {})
    .filter(([, value]) => typeof value === 'number')
    .map(([metric, value]) => h('span', { class: 'metric' }, h('small', {}, metric), sparkline(metric, remember(device.uuid, metric, value))));
}

function deviceList(host, telemetry) {
  return h(
    'ul',
    { class: 'devices' },
    host.devices.edges.map(({ node: device }) => {
      const sample = telemetry.get(device.uuid);
      return h(
        'li',
        { 'data-device': device.uuid },
        h('a', { href: `/console/device.html?uuid=${encodeURIComponent(device.uuid)}` }, `${device.type} ${device.model}`),
        ' ', h('code', {}, device.pciAddress), ' ', badge(device.status), ' ',
        h('span', { title: device.healthReason ?? '' }, badge(sample?.health ?? device.health)), ' ',
        sparklines(device, sample),
      );
    }),
  );
}

async function render(live) {
  const data = await graphql(QUERY, { first: HOSTS_PER_PAGE, after: cursors.at(-1) });
  const hosts = data.page.edges.map((edge) => edge.node);
  nextCursor = data.page.pageInfo.hasNextPage ? data.page.pageInfo.endCursor : null;
  const telemetry = await telemetryOf(hosts);
  const rows = hosts.map((host) =>
    h(
      'tr',
      { 'data-host': host.hostname },
      h('th', { scope: 'row' }, host.hostname),
      h('td', {}, badge(host.agentStatus)),
      h('td', {}, badge(host.status)),
      h('td', {}, time(host.lastSeenAt)),
      h('td', {}, host.deviceCount),
      h('td', {}, deviceList(host, telemetry)),
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
}

refresh = startPage({ title: 'Fleet', render });
