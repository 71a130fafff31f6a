// The auditor's view: scrub the inventory back in time with a slider over
// log positions (GraphQL `asOf`), and verify the hash chain.
import { graphql, headPosition, rest } from './api.js';
import { badge, fill, h, table } from './dom.js';
import { action, startPage } from './layout.js';

const AS_OF = `query AsOf($asOf: String!) {
  hosts(first: 200, asOf: $asOf) { asOfPosition edges { node { hostname status deviceCount } } pageInfo { hasNextPage } }
  devices(first: 500, asOf: $asOf) { edges { node { uuid hostname type model status } } }
}`;

let slider;
let shown;
let verdict;
/** The position the slider stands at; null follows the head. */
let pinned = null;

function inventory(data) {
  const hosts = data.hosts.edges.map((edge) => edge.node);
  const devices = data.devices.edges.map((edge) => edge.node);
  return [
    h('p', { 'data-testid': 'as-of' }, `As of position ${data.hosts.asOfPosition}: ${hosts.length}${data.hosts.pageInfo.hasNextPage ? '+' : ''} hosts, ${devices.length} devices`),
    table(['Host', 'Status', 'Devices'], hosts.map((host) => [host.hostname, badge(host.status), host.deviceCount]), { 'data-testid': 'as-of-hosts' }),
    table(['Device', 'Host', 'Type', 'Model', 'Status'], devices.map((device) => [h('code', {}, device.uuid.slice(0, 8)), device.hostname, device.type, device.model, badge(device.status)]), { 'data-testid': 'as-of-devices' }),
  ];
}

async function render(live) {
  const head = await headPosition();
  slider.max = String(Math.max(1, head));
  if (pinned === null) slider.value = String(head);
  const position = Number(slider.value);
  fill(shown, `position ${position} of ${head}`);
  if (head === 0) {
    fill(live, h('p', { class: 'empty' }, 'The log is empty.'));
    return;
  }
  fill(live, inventory(await graphql(AS_OF, { asOf: String(position) })));
}

function describe(result) {
  if (result.ok) {
    const anchor = result.anchor ? `anchored by the signed checkpoint at position ${result.anchor.position}; ${result.unanchored} later events not yet signed` : 'not anchored by a signed checkpoint';
    return [badge('intact'), ` ${result.checked} events, head position ${result.headPosition}; ${anchor}.`];
  }
  return [badge('broken'), ` at position ${result.firstBreak.position}: ${result.firstBreak.reason} — ${result.firstBreak.detail}`];
}

const refresh = startPage({
  title: 'Audit',
  setup(controls) {
    slider = h('input', { id: 'as-of', type: 'range', min: 1, max: 1, step: 1, 'data-testid': 'as-of-slider' });
    shown = h('output', { for: 'as-of' });
    // `change`, not `input`: one rebuild per position the operator settles on, not one per pixel dragged.
    slider.addEventListener('change', () => {
      pinned = slider.value === slider.max ? null : Number(slider.value);
      refresh();
    });
    verdict = h('p', { 'data-testid': 'verdict' });
    const verify = h('button', { type: 'button', 'data-testid': 'verify' }, 'Verify the chain');
    verify.addEventListener('click', action(() => undefined, async () => fill(verdict, describe(await rest('GET', '/api/v1/audit/verify')))));
    fill(
      controls,
      h('p', {}, verify, ' ', verdict),
      h('p', {}, h('label', { for: 'as-of' }, 'Inventory as of '), slider, ' ', shown, h('span', { class: 'hint' }, ' (at the right end the view follows the head)')),
    );
  },
  render,
});
