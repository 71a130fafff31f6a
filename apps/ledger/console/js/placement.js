// Placement sync: hosts per sync state, the reconciler's view, and the hosts
// not in sync with why.
import { rest } from './api.js';
import { badge, fill, h, json, table, time } from './dom.js';
import { startPage } from './layout.js';

/**
 * The hosts not in sync; with the reconciler off nothing is compared with
 * Placement, so an empty list says that rather than "in sync".
 */
function notInSync(fleet) {
  if (fleet.items.length > 0) {
    return table(['Host', 'State', 'Since', 'Position', 'Detail'], fleet.items.map((item) => [item.hostname, badge(item.state), time(item.since), item.position, item.detail ?? json(item.blocked ?? null)]), { 'data-testid': 'not-in-sync' });
  }
  if (!fleet.reconciler.enabled) return h('p', { class: 'empty', 'data-testid': 'reconciler-off' }, 'Not compared: the reconciler is off, so no host is known to be in sync with Placement.');
  return h('p', { class: 'empty' }, 'Every host is in sync.');
}

async function render(live) {
  const fleet = await rest('GET', '/api/v1/placement?limit=200');
  fill(
    live,
    h('p', {}, 'Reconciler: ', badge(fleet.reconciler.enabled ? 'on' : 'off'), fleet.reconciler.enabled ? '' : ' (LEDGER_PLACEMENT_URL is not set)'),
    h('dl', { class: 'summary', 'data-testid': 'sync-counts' }, Object.entries(fleet.counts).map(([state, count]) => [h('dt', {}, state), h('dd', {}, count)])),
    h('h2', {}, 'Hosts not in sync'),
    notInSync(fleet),
    h('details', {}, h('summary', {}, 'Reconciler status'), json(fleet.reconciler)),
  );
}

startPage({ title: 'Placement sync', render });
