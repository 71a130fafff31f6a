// The fleet at a glance: what is wrong right now. Counts by agent state,
// host status, device type, status and health (each a filter at a click),
// a search by host, device, project or instance, and a page of the matching
// hosts with their devices, why Placement offers a device to no one (fenced,
// unhealthy, cleaning, …) and telemetry over time. The ledger counts and
// pages (GET /api/v1/fleet); the page never holds more than one page of hosts.
import { rest } from './api.js';
import { badge, fill, h, table, time } from './dom.js';
import { startPage } from './layout.js';
import { seriesOf, sparkline } from './sparkline.js';

const HOSTS_PER_PAGE = 50;

/** The filters, as the API and the page's address name them, with the choices each offers. */
const FILTERS = [
  ['agent', 'Agent', ['up', 'lost', 'unknown']],
  ['hostStatus', 'Host status', ['registered', 'provisioning', 'provisioned', 'provision-failed']],
  ['type', 'Device type', ['GPU', 'FPGA', 'DPU', 'NIC', 'QAT', 'NPU']],
  ['health', 'Health', ['ok', 'degraded', 'failed']],
  ['deviceStatus', 'Device status', ['enabled', 'maintaining']],
];

/** The filters in force: the page's address holds them, so a view can be bookmarked or shared. */
const filters = Object.fromEntries(new URLSearchParams(location.search));
/** Cursors of the pages before this one, and this page's: Back pops, Next pushes. */
let cursors = [null];
let nextCursor = null;
let refresh;
const inputs = {};
/** A slow round of telemetry calls is not stacked with the next poll's. */
let telemetryPending = false;
/**
 * What was last read of each device, by uuid: why Placement offers it to no
 * one, and its telemetry samples. A poll's new rows show them at once, not
 * empty until the next reads are in.
 */
const unoffered = new Map();
const lastSamples = new Map();
let placementPending = false;

/** Sets filters (`''` or null: drop it), shows them in the controls and the address, and reads from the first page. */
function setFilters(changes) {
  for (const [name, value] of Object.entries(changes)) {
    if (value === '' || value === null) delete filters[name];
    else filters[name] = String(value);
    if (inputs[name]?.type === 'checkbox') inputs[name].checked = filters[name] === 'true';
    else if (inputs[name]) inputs[name].value = filters[name] ?? '';
  }
  history.replaceState(null, '', `?${new URLSearchParams(filters)}`);
  cursors = [null];
  refresh();
}

const setFilter = (name, value) => setFilters({ [name]: value });

/** States an operator acts on: their counts stand out when not zero. */
const ALARMING = new Set(['lost', 'provision-failed', 'degraded', 'failed', 'maintaining']);

/** One count that filters on a click (and, clicked again, stops filtering). */
function tile(label, count, name, value, testid, alarming = ALARMING.has(value)) {
  const active = filters[name] === String(value);
  return h(
    'button',
    { type: 'button', class: `tile${active ? ' active' : ''}${alarming && count > 0 ? ' alarm' : ''}`, 'aria-pressed': active, 'data-testid': testid, onclick: () => setFilter(name, active ? null : value) },
    h('span', { class: 'count' }, count),
    h('span', { class: 'label' }, label),
  );
}

function groupOf(title, counts, name, testPrefix) {
  const entries = Object.entries(counts);
  return h('div', { class: 'group' }, h('h3', {}, title), entries.length === 0 ? h('span', { class: 'hint' }, 'none') : entries.map(([value, count]) => tile(value, count, name, value, `${testPrefix}-${value}`)));
}

function summary(counts) {
  return h(
    'section',
    { class: 'overview', 'data-testid': 'fleet-summary' },
    h(
      'div',
      { class: 'group' },
      h('h3', {}, 'Hosts'),
      h('span', { class: 'tile total' }, h('span', { class: 'count', 'data-testid': 'host-count' }, counts.hosts), h('span', { class: 'label' }, 'matching')),
      tile('need attention', counts.attention, 'attention', 'true', 'attention', true),
    ),
    h(
      'div',
      { class: 'group' },
      h('h3', {}, 'Agents'),
      tile('up', counts.byAgent.up, 'agent', 'up', 'agents-up'),
      tile('lost', counts.byAgent.lost, 'agent', 'lost', 'agents-lost'),
      tile('unknown', counts.byAgent.unknown, 'agent', 'unknown', 'agents-unknown'),
    ),
    groupOf('Host status', counts.byHostStatus, 'hostStatus', 'host-status'),
    groupOf(`Devices (${counts.devices})`, counts.byType, 'type', 'type'),
    groupOf('Health', counts.byHealth, 'health', 'health'),
    groupOf('Device status', counts.byDeviceStatus, 'deviceStatus', 'device-status'),
  );
}

/**
 * Each up host's telemetry over time (a lost or silent host has none worth
 * drawing), one call per host, drawn into the rows once it is in: the hosts
 * show first, the charts follow.
 */
async function fillTelemetry(live, hosts) {
  const up = hosts.filter((host) => host.agentStatus === 'up');
  const answers = await Promise.all(up.map((host) => rest('GET', `/api/v1/hosts/${encodeURIComponent(host.hostname)}/telemetry/history`).catch(() => null)));
  for (const device of answers.flatMap((answer) => answer?.devices ?? [])) {
    lastSamples.set(device.deviceUuid, device.samples);
    const cell = live.querySelector(`li[data-device="${CSS.escape(device.deviceUuid)}"] .telemetry`);
    if (cell) fill(cell, charts(device.deviceUuid));
  }
}

/** A device's charts from the samples last read (none yet: nothing). */
const charts = (deviceUuid) => [...seriesOf(lastSamples.get(deviceUuid) ?? [])].map(([metric, points]) => h('span', { class: 'metric' }, h('small', {}, metric), sparkline(metric, points)));

/** The reasons a device is not offered (fenced, unhealthy, cleaning, …), one badge each; nothing for an offered device. */
const placementBadges = (deviceUuid) => (unoffered.get(deviceUuid) ?? []).map((reason) => badge(reason));

/**
 * Why Placement holds back each listed host's devices, one call per host,
 * drawn into the rows once in: the reserved reasons of a device's
 * providers, as the reconciler sends them to Placement.
 */
async function fillPlacement(live, hosts) {
  const answers = await Promise.all(hosts.map((host) => rest('GET', `/api/v1/hosts/${encodeURIComponent(host.hostname)}/placement`).catch(() => null)));
  for (const host of hosts) for (const device of host.devices) unoffered.delete(device.uuid);
  for (const provider of answers.flatMap((answer) => answer?.providers ?? [])) {
    unoffered.set(provider.deviceUuid, [...new Set([...(unoffered.get(provider.deviceUuid) ?? []), ...provider.reservedBecause])]);
  }
  for (const cell of live.querySelectorAll('li[data-device] .placement')) fill(cell, placementBadges(cell.closest('li').dataset.device));
}

function deviceList(host) {
  return h(
    'ul',
    { class: 'devices' },
    host.devices.map((device) =>
      h(
        'li',
        { 'data-device': device.uuid },
        h('a', { href: `/console/device.html?uuid=${encodeURIComponent(device.uuid)}` }, `${device.type} ${device.model}`),
        h('code', {}, device.pciAddress),
        h('span', {}, badge(device.status)),
        h('span', { class: 'health', title: device.healthReason ?? '' }, badge(device.health)),
        h('span', { class: 'placement', title: 'not offered in Placement because' }, placementBadges(device.uuid)),
        h('span', { class: 'telemetry' }, charts(device.uuid)),
      ),
    ),
  );
}

const hostRow = (host) =>
  h(
    'tr',
    { 'data-host': host.hostname },
    h('th', { scope: 'row' }, host.hostname),
    h('td', {}, badge(host.agentStatus)),
    h('td', {}, badge(host.status)),
    h('td', {}, time(host.lastSeenAt)),
    h('td', {}, host.deviceCount),
    h('td', {}, deviceList(host)),
  );

function nothingMatches(counts) {
  if (Object.keys(filters).length > 0) return h('p', { class: 'empty' }, 'No host matches these filters.');
  return h('p', { class: 'empty' }, counts.hosts === 0 ? 'No host has reported yet.' : 'No host on this page.');
}

async function render(live) {
  const query = new URLSearchParams({ ...filters, limit: String(HOSTS_PER_PAGE) });
  if (cursors.at(-1)) query.set('cursor', cursors.at(-1));
  const fleet = await rest('GET', `/api/v1/fleet?${query}`);
  nextCursor = fleet.nextCursor;
  fill(
    live,
    summary(fleet.counts),
    fleet.hosts.length === 0
      ? nothingMatches(fleet.counts)
      : table(['Host', 'Agent', 'Status', 'Last seen', 'Devices', 'Devices: status, health, why not offered, telemetry over time'], fleet.hosts.map(hostRow), { 'data-testid': 'hosts' }),
    h(
      'p',
      { class: 'pager' },
      h('button', { type: 'button', disabled: cursors.length === 1, onclick: () => (cursors.pop(), refresh()) }, 'Previous hosts'),
      h('button', { type: 'button', disabled: nextCursor === null, onclick: () => (cursors.push(nextCursor), refresh()) }, 'Next hosts'),
      h('span', { class: 'hint' }, ` ${HOSTS_PER_PAGE} hosts a page, by name`),
    ),
  );
  if (!placementPending) {
    placementPending = true;
    void fillPlacement(live, fleet.hosts).finally(() => (placementPending = false));
  }
  if (telemetryPending) return;
  telemetryPending = true;
  void fillTelemetry(live, fleet.hosts).finally(() => {
    telemetryPending = false;
    // The render benchmark's second figure: when the first page's charts were all drawn.
    if (!document.body.dataset.telemetry) performance.mark('console-telemetry');
    document.body.dataset.telemetry = 'drawn';
  });
}

function controls(section) {
  inputs.search = h('input', { id: 'search', type: 'search', value: filters.search ?? '', placeholder: 'host, device uuid or model, PCI address, project, instance', size: 44 });
  const form = h('form', { class: 'filters', role: 'search', onsubmit: (event) => (event.preventDefault(), setFilter('search', inputs.search.value.trim())) }, h('label', { for: 'search' }, 'Search '), inputs.search, ' ', h('button', { type: 'submit' }, 'Find'));
  const selects = FILTERS.map(([name, label, choices]) => {
    inputs[name] = h('select', { id: `filter-${name}`, onchange: (event) => setFilter(name, event.target.value) }, h('option', { value: '' }, 'any'), choices.map((choice) => h('option', { value: choice, selected: filters[name] === choice }, choice)));
    return h('label', {}, `${label} `, inputs[name]);
  });
  inputs.attention = h('input', { id: 'filter-attention', type: 'checkbox', checked: filters.attention === 'true', onchange: (event) => setFilter('attention', event.target.checked ? 'true' : null) });
  const clear = h('button', { type: 'button', onclick: () => setFilters(Object.fromEntries(Object.keys(filters).map((name) => [name, null]))) }, 'Clear filters');
  fill(section, form, h('p', { class: 'filters' }, selects, h('label', {}, inputs.attention, ' only what needs attention'), clear));
}

refresh = startPage({ title: 'Fleet', setup: controls, render });
