// One device: what it is now and whether Placement offers it (or why not),
// its timeline of events, who held it when, the images loaded into its
// regions, and maintenance (disable / enable).
import { graphql, rest } from './api.js';
import { badge, eventName, fill, h, table, time } from './dom.js';
import { action, startPage } from './layout.js';
import { SIZES, seriesOf, sparkline } from './sparkline.js';

const uuid = new URLSearchParams(location.search).get('uuid') ?? '';

const QUERY = `query Device($uuid: String!) {
  device(uuid: $uuid) {
    uuid hostname type model vendorId productId pciAddress driver status disabledReason health healthReason updatedAt
    deployables(first: 50) { edges { node { uuid name resourceClass count bitstreamId functionId programmedAt } } }
  }
  deviceTimeline(device: $uuid, limit: 500) { entries { position recordedAt type summary actor projectId } next }
  deviceTenancy(device: $uuid) { tenancies { arqUuid instanceUuid projectId region bitstreamId deviceProfile { name } from { position time } to { position time } } }
}`;

let refresh;
let reason;

/** Why Placement offers the device to no one (its providers' reserved reasons: fenced, unhealthy, cleaning, …), or that it is offered. */
async function placement(device) {
  const view = await rest('GET', `/api/v1/hosts/${encodeURIComponent(device.hostname)}/placement`).catch(() => null);
  if (!view) return '—';
  const reasons = [...new Set(view.providers.filter((provider) => provider.deviceUuid === device.uuid).flatMap((provider) => provider.reservedBecause))];
  return h('span', { 'data-testid': 'placement' }, reasons.length === 0 ? badge('offered') : ['reserved: ', reasons.map((reason) => badge(reason))]);
}

function facts(device, offered) {
  const rows = [
    ['Host', device.hostname], ['Type', device.type], ['Model', device.model], ['Vendor / product', `${device.vendorId}:${device.productId}`],
    ['PCI address', device.pciAddress], ['Driver', device.driver ?? '—'], ['Status', badge(device.status)],
    ['Disabled because', device.disabledReason ?? '—'], ['Health', badge(device.health)], ['Health reason', device.healthReason ?? '—'], ['In Placement', offered], ['Updated', time(device.updatedAt)],
  ];
  return h('dl', { class: 'facts', 'data-testid': 'device-facts' }, rows.map(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]));
}

function maintenance(device) {
  const disable = action(refresh, () => rest('POST', `/api/v1/devices/${encodeURIComponent(uuid)}/disable`, { reason: reason.value || 'disabled from the console' }));
  const enable = action(refresh, () => rest('POST', `/api/v1/devices/${encodeURIComponent(uuid)}/enable`));
  return device.status === 'enabled'
    ? h('button', { type: 'button', 'data-testid': 'disable', onclick: disable }, 'Disable for maintenance')
    : h('button', { type: 'button', 'data-testid': 'enable', onclick: enable }, 'Return to service');
}

async function provenance() {
  const { loads } = await rest('GET', `/api/v1/devices/${encodeURIComponent(uuid)}/provenance`);
  if (loads.length === 0) return h('p', { class: 'empty' }, 'No image has been loaded into this device.');
  return table(
    ['Loaded', 'Region', 'Bitstream', 'sha256', 'Function', 'Job', 'Project', 'Requested by'],
    loads.map((load) => [time(load.loadedAt), load.region ?? '(whole device)', load.bitstreamId ?? 'unknown image', h('code', {}, load.sha256?.slice(0, 16) ?? '—'), load.functionId ?? '—', h('code', {}, load.jobId), load.project ?? '—', load.requestedBy]),
  );
}

/** The device's telemetry over the time the ledger keeps it, a chart per metric. */
async function utilisation() {
  const history = await rest('GET', `/api/v1/devices/${encodeURIComponent(uuid)}/telemetry/history`);
  const samples = history.devices[0]?.samples ?? [];
  const kept = history.keptMinutes === 0 ? 'the ledger keeps no telemetry history (LEDGER_TELEMETRY_HISTORY_MINUTES=0)' : `the last ${history.keptMinutes} min, one sample per ${history.stepSeconds} s`;
  if (samples.length === 0) return h('p', { class: 'empty' }, `No telemetry: ${kept}.`);
  return h(
    'div',
    { class: 'charts', 'data-testid': 'utilisation' },
    [...seriesOf(samples)].map(([metric, points]) => h('figure', { class: 'chart' }, sparkline(metric, points, SIZES.large), h('figcaption', {}, `${metric} — ${kept}`))),
  );
}

async function render(live) {
  const [data, loads, charts] = await Promise.all([graphql(QUERY, { uuid }), provenance(), utilisation()]);
  const { device, deviceTimeline, deviceTenancy } = data;
  if (!device) {
    fill(live, h('p', { class: 'empty' }, `No device ${uuid}.`));
    return;
  }
  fill(
    live,
    h('h2', {}, `${device.type} ${device.model} on ${device.hostname}`),
    facts(device, await placement(device)),
    h('p', { class: 'actions' }, maintenance(device)),
    h('h2', {}, 'Utilisation over time'),
    charts,
    h('h2', {}, 'Regions'),
    table(['Deployable', 'Class', 'Count', 'Bitstream', 'Function', 'Programmed'], device.deployables.edges.map(({ node }) => [node.name, node.resourceClass, node.count, node.bitstreamId ?? '—', node.functionId ?? '—', time(node.programmedAt)])),
    h('h2', {}, 'Bitstream provenance'),
    loads,
    h('h2', {}, 'Who held it when'),
    deviceTenancy.tenancies.length === 0
      ? h('p', { class: 'empty' }, 'Never bound to a request.')
      : table(
          ['From', 'To', 'Project', 'Instance', 'Request', 'Profile', 'Region', 'Bitstream'],
          deviceTenancy.tenancies.map((tenancy) => [
            [`#${tenancy.from.position} `, time(tenancy.from.time)], tenancy.to ? [`#${tenancy.to.position} `, time(tenancy.to.time)] : 'holding', tenancy.projectId ?? '—', tenancy.instanceUuid ?? '—',
            h('code', {}, tenancy.arqUuid), tenancy.deviceProfile?.name ?? '—', tenancy.region ?? '—', tenancy.bitstreamId ?? '—',
          ]),
          { 'data-testid': 'tenancy' },
        ),
    h('h2', {}, 'Timeline'),
    table(
      ['Position', 'Recorded', 'Event', 'What happened', 'By', 'Project'],
      deviceTimeline.entries.map((entry) => [`#${entry.position}`, time(entry.recordedAt), eventName(entry.type), entry.summary, entry.actor, entry.projectId ?? '—']),
      { 'data-testid': 'timeline' },
    ),
    deviceTimeline.next === null ? null : h('p', { class: 'hint' }, `Later entries: GET /api/v1/devices/${uuid}/timeline?after=${deviceTimeline.next}`),
  );
}

refresh = startPage({
  title: 'Device',
  setup(controls) {
    reason = h('input', { id: 'reason', type: 'text', maxlength: 1024, placeholder: 'fan replacement' });
    fill(controls, h('label', { for: 'reason' }, 'Reason for maintenance '), reason);
  },
  render,
});
