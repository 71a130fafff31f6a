// Placement sync: hosts per sync state, the reconciler's view, and the hosts
// not in sync with why.
import { rest } from './api.js';
import { badge, fill, h, json, table, time } from './dom.js';
import { startPage } from './layout.js';

async function render(live) {
  const fleet = await rest('GET', '/api/v1/placement?limit=200');
  fill(
    live,
    h('p', {}, 'Reconciler: ', badge(fleet.reconciler.enabled ? 'on' : 'off'), fleet.reconciler.enabled ? '' : ' (LEDGER_PLACEMENT_URL is not set)'),
    h('dl', { class: 'summary', 'data-testid': 'sync-counts' }, Object.entries(fleet.counts).map(([state, count]) => [h('dt', {}, state), h('dd', {}, count)])),
    h('h2', {}, 'Hosts not in sync'),
    fleet.items.length === 0
      ? h('p', { class: 'empty' }, 'Every host is in sync.')
      : table(['Host', 'State', 'Since', 'Position', 'Detail'], fleet.items.map((item) => [item.hostname, badge(item.state), time(item.since), item.position, item.detail ?? json(item.blocked ?? null)]), { 'data-testid': 'not-in-sync' }),
    h('details', {}, h('summary', {}, 'Reconciler status'), json(fleet.reconciler)),
  );
}

startPage({ title: 'Placement sync', render });
