// Quota: a project's usage against its limits (no limit: unlimited, as in
// Cyborg). Anyone sees their own project; an admin picks another from the
// projects that have a limit or something in use, or types one.
import { ApiError, graphql, rest } from './api.js';
import { fill, h, table } from './dom.js';
import { startPage } from './layout.js';
import { who } from './session.js';

const QUERY = `query Quota($project: String) { quota(project: $project) { project limits usage } }`;

let project;

function bar(used, limit) {
  if (limit === undefined || limit === null) return h('span', { class: 'hint' }, 'unlimited');
  return h('meter', { min: 0, max: limit, value: used, high: limit * 0.8, optimum: 0, title: `${used} of ${limit}` }, `${used} / ${limit}`);
}

/** The resources a project has a limit on or uses, by name. */
const resourcesOf = (quota) => [...new Set([...Object.keys(quota.limits), ...Object.keys(quota.usage)])].sort();

/** Each resource of a project as `used / limit` (or `used`, unlimited), for the project list. */
const usageLine = (quota) =>
  resourcesOf(quota)
    .map((name) => `${name} ${quota.usage[name] ?? 0}${quota.limits[name] === undefined ? '' : ` / ${quota.limits[name]}`}`)
    .join(', ');

/** The projects an admin may pick from (the first page, by name); null for a token that may not list them. */
async function projectList() {
  if (!who()?.fleet) return null;
  try {
    return await rest('GET', '/api/v1/quotas?limit=200');
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return null;
    throw error;
  }
}

function projects(list, shown) {
  if (list === null) return null;
  return h(
    'nav',
    { class: 'projects', 'aria-label': 'Projects' },
    h('h2', {}, `Projects (${list.items.length}${list.nextCursor ? '+' : ''})`),
    list.items.length === 0
      ? h('p', { class: 'empty' }, 'No project has a limit or anything in use.')
      : h(
          'ul',
          { 'data-testid': 'quota-projects' },
          list.items.map((quota) =>
            h('li', {}, h('a', { href: `?project=${encodeURIComponent(quota.project)}`, 'aria-current': quota.project === shown ? 'page' : null }, quota.project), ' ', h('span', { class: 'hint' }, usageLine(quota) || 'no limit, nothing in use')),
          ),
        ),
  );
}

async function render(live) {
  const [{ quota }, list] = await Promise.all([graphql(QUERY, { project: project.value.trim() || null }), projectList()]);
  const names = resourcesOf(quota);
  fill(
    live,
    h(
      'div',
      { class: list === null ? '' : 'with-sidebar' },
      projects(list, quota.project),
      h(
        'section',
        {},
        h('h2', {}, `Project ${quota.project}`),
        names.length === 0
          ? h('p', { class: 'empty' }, 'No limit set and nothing in use.')
          : table(['Resource', 'In use', 'Limit', ''], names.map((name) => [name, quota.usage[name] ?? 0, quota.limits[name] ?? '—', bar(quota.usage[name] ?? 0, quota.limits[name])]), { 'data-testid': 'quota' }),
      ),
    ),
  );
}

const refresh = startPage({
  title: 'Quota',
  setup(controls) {
    const chosen = new URLSearchParams(location.search).get('project');
    project = h('input', { id: 'project', type: 'text', value: chosen ?? who()?.project ?? '', onchange: () => refresh() });
    fill(controls, h('label', { for: 'project' }, 'Project '), project);
  },
  render,
});
