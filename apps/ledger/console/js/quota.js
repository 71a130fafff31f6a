// Quota: a project's usage against its limits (no limit: unlimited, as in
// Cyborg). Anyone sees their own project; an admin may pick another.
import { graphql } from './api.js';
import { fill, h, table } from './dom.js';
import { startPage } from './layout.js';
import { who } from './session.js';

const QUERY = `query Quota($project: String) { quota(project: $project) { project limits usage } }`;

let project;

function bar(used, limit) {
  if (limit === undefined || limit === null) return h('span', { class: 'hint' }, 'unlimited');
  return h('meter', { min: 0, max: limit, value: used, high: limit * 0.8, optimum: 0, title: `${used} of ${limit}` }, `${used} / ${limit}`);
}

async function render(live) {
  const { quota } = await graphql(QUERY, { project: project.value.trim() || null });
  const names = [...new Set([...Object.keys(quota.limits), ...Object.keys(quota.usage)])].sort();
  fill(
    live,
    h('h2', {}, `Project ${quota.project}`),
    names.length === 0
      ? h('p', { class: 'empty' }, 'No limit set and nothing in use.')
      : table(['Resource', 'In use', 'Limit', ''], names.map((name) => [name, quota.usage[name] ?? 0, quota.limits[name] ?? '—', bar(quota.usage[name] ?? 0, quota.limits[name])]), { 'data-testid': 'quota' }),
  );
}

const refresh = startPage({
  title: 'Quota',
  setup(controls) {
    project = h('input', { id: 'project', type: 'text', value: who()?.project ?? '', onchange: () => refresh() });
    fill(controls, h('label', { for: 'project' }, 'Project '), project);
  },
  render,
});
