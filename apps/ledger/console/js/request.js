// One accelerator request: what it is, the device it holds (with the
// device's timeline while it held it), its latest bind and the bind workflows behind it.
import { graphql } from './api.js';
import { badge, eventName, fill, h, table, time } from './dom.js';
import { startPage } from './layout.js';

const uuid = new URLSearchParams(location.search).get('uuid') ?? '';

const REQUEST = `query Request($uuid: String!) {
  acceleratorRequest(uuid: $uuid) {
    uuid state projectId deviceProfileName deviceProfileGroupId resourceClass instanceUuid hostname deviceUuid deviceRpUuid attachHandleType attachHandleUuid attachHandleInfo createdAt updatedAt lastBindId
  }
}`;
const DEVICE = `query HeldDevice($device: String!) {
  device(uuid: $device) { uuid type model hostname pciAddress status health }
  deviceTimeline(device: $device, limit: 500) { entries { position recordedAt type summary actor projectId } }
  deviceTenancy(device: $device) { tenancies { arqUuid from { position time } to { position time } } }
}`;
const BINDS = `query Binds($arq: String!) { workflows(first: 100, arq: $arq) { edges { node { name id status currentStep startedAt endedAt reason } } } }`;

const workflowLink = (workflow) => h('a', { href: `/console/workflows.html?name=${encodeURIComponent(workflow.name)}&id=${encodeURIComponent(workflow.id)}` }, workflow.id);

function facts(arq) {
  const rows = [
    ['State', badge(arq.state)], ['Project', arq.projectId], ['Profile (group)', `${arq.deviceProfileName} (${arq.deviceProfileGroupId})`], ['Class', arq.resourceClass],
    ['Instance', arq.instanceUuid ?? '—'], ['Host', arq.hostname ? h('a', { href: `/console/fleet.html?search=${encodeURIComponent(arq.hostname)}` }, arq.hostname) : '—'],
    ['Device', arq.deviceUuid ? h('a', { href: `/console/device.html?uuid=${encodeURIComponent(arq.deviceUuid)}`, 'data-testid': 'device-link' }, arq.deviceUuid) : '—'],
    ['Attach handle', arq.attachHandleUuid ? `${arq.attachHandleType} ${arq.attachHandleUuid}` : '—'], ['Created', time(arq.createdAt)], ['Updated', time(arq.updatedAt)],
  ];
  return h('dl', { class: 'facts', 'data-testid': 'request-facts' }, rows.map(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]));
}

/** The device's timeline from the request's first hold to its last release (or now): what happened to it for this request. */
function heldTimeline(data, arq) {
  const holds = data.deviceTenancy.tenancies.filter((tenancy) => tenancy.arqUuid === arq.uuid);
  if (holds.length === 0) return h('p', { class: 'empty' }, 'The device has no record of holding this request.');
  const from = Math.min(...holds.map((hold) => hold.from.position));
  const to = holds.some((hold) => hold.to === null) ? Infinity : Math.max(...holds.map((hold) => hold.to.position));
  const entries = data.deviceTimeline.entries.filter((entry) => entry.position >= from && entry.position <= to);
  return table(['Position', 'Recorded', 'Event', 'What happened', 'By'], entries.map((entry) => [`#${entry.position}`, time(entry.recordedAt), eventName(entry.type), entry.summary, entry.actor]), { 'data-testid': 'request-timeline' });
}

/**
 * The request's latest bind, and the bind workflows it had (newest first).
 * A bind with nothing to program is decided at once and runs no workflow:
 * the request's own timeline is its whole story (docs/workflows.md).
 */
function binds(workflows, arq) {
  const latest = arq.lastBindId
    ? h('p', { 'data-testid': 'latest-bind' }, 'Latest bind ', h('code', {}, arq.lastBindId), workflows.some((workflow) => workflow.id === arq.lastBindId) ? '' : ': decided at once, no workflow.')
    : h('p', { class: 'empty', 'data-testid': 'latest-bind' }, 'Never bound.');
  if (workflows.length === 0) return latest;
  return [
    latest,
    table(['Bind', 'Status', 'Step', 'Started', 'Ended', 'Reason'], workflows.map((workflow) => [workflowLink(workflow), badge(workflow.status), workflow.currentStep ?? '—', time(workflow.startedAt), time(workflow.endedAt), workflow.reason ?? '—']), { 'data-testid': 'binds' }),
  ];
}

async function render(live) {
  const [{ acceleratorRequest: arq }, bindList] = await Promise.all([graphql(REQUEST, { uuid }), graphql(BINDS, { arq: uuid }).catch(() => null)]);
  if (!arq) {
    fill(live, h('p', { class: 'empty' }, `No request ${uuid} (or not of your project).`));
    return;
  }
  const held = arq.deviceUuid ? await graphql(DEVICE, { device: arq.deviceUuid }) : null;
  fill(
    live,
    h('h2', {}, `Request ${arq.uuid}`),
    facts(arq),
    h('h2', {}, 'Device'),
    held?.device
      ? h('p', {}, h('a', { href: `/console/device.html?uuid=${encodeURIComponent(held.device.uuid)}` }, `${held.device.type} ${held.device.model}`), ` on ${held.device.hostname} `, h('code', {}, held.device.pciAddress), ' ', badge(held.device.status), ' ', badge(held.device.health))
      : h('p', { class: 'empty' }, 'Not bound to a device.'),
    h('h2', {}, 'Timeline while held'),
    held ? heldTimeline(held, arq) : h('p', { class: 'empty' }, 'Never held a device.'),
    h('h2', {}, 'Binds'),
    binds(bindList === null ? [] : bindList.workflows.edges.map((edge) => edge.node), arq),
  );
}

startPage({ title: 'Request', render });
