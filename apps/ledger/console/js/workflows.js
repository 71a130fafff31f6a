// Workflows: instances newest first, and one instance's step timeline (each
// step's do and compensate phases) with cancel and retry.
import { graphql, rest } from './api.js';
import { badge, fill, h, json, table, time } from './dom.js';
import { action, startPage } from './layout.js';

const LIST = `query Workflows($status: String) {
  workflows(first: 100, status: $status) { edges { node { name id status currentStep currentPhase startedAt endedAt reason } } }
}`;
const ONE = `query Workflow($name: String!, $id: String!) {
  workflow(name: $name, id: $id) {
    name id status currentStep currentPhase startedAt endedAt reason
    steps { step phase status attempts startedAt sentAt endedAt durationMs evidence reason }
    unresolved { step reason }
  }
}`;

const params = new URLSearchParams(location.search);
const selected = { name: params.get('name'), id: params.get('id') };
let statusFilter;
let refresh;

const path = (workflow, verb) => `/api/v1/workflows/${encodeURIComponent(workflow.name)}/${encodeURIComponent(workflow.id)}/${verb}`;
const link = (workflow) => h('a', { href: `/console/workflows.html?name=${encodeURIComponent(workflow.name)}&id=${encodeURIComponent(workflow.id)}` }, workflow.id);

function stepTimeline(workflow) {
  return h(
    'ol',
    { class: 'timeline', 'data-testid': 'steps' },
    workflow.steps.map((step) =>
      h(
        'li',
        { class: `phase-${step.phase}`, 'data-step': step.step, 'data-phase': step.phase },
        h('strong', {}, step.step), ' ', h('span', { class: 'phase' }, step.phase), ' ', badge(step.status),
        ` ${step.attempts} attempt${step.attempts === 1 ? '' : 's'}`, step.durationMs === null ? '' : `, ${step.durationMs} ms`, ' · ', time(step.startedAt),
        step.reason ? h('p', { class: 'reason' }, step.reason) : null,
        step.evidence ? h('details', {}, h('summary', {}, 'evidence'), json(step.evidence)) : null,
      ),
    ),
  );
}

function detail(workflow) {
  const cancel = action(refresh, () => rest('POST', path(workflow, 'cancel'), { reason: 'cancelled from the console' }));
  const retry = action(refresh, () => rest('POST', path(workflow, 'retry')));
  return h(
    'section',
    { class: 'workflow', 'data-testid': 'workflow' },
    h('h2', {}, `${workflow.name} ${workflow.id}`),
    h('p', {}, badge(workflow.status), workflow.currentStep ? ` at ${workflow.currentStep} (${workflow.currentPhase})` : '', workflow.reason ? ` — ${workflow.reason}` : ''),
    h(
      'p',
      { class: 'actions' },
      h('button', { type: 'button', 'data-testid': 'cancel', disabled: workflow.status !== 'running', onclick: cancel }, 'Cancel (compensate)'),
      h('button', { type: 'button', 'data-testid': 'retry', disabled: workflow.status !== 'failed', onclick: retry }, 'Retry'),
    ),
    stepTimeline(workflow),
    workflow.unresolved.length === 0 ? null : h('div', {}, h('h3', {}, 'Compensations given up'), table(['Step', 'Why'], workflow.unresolved.map((item) => [item.step, item.reason]))),
  );
}

async function render(live) {
  const [list, one] = await Promise.all([
    graphql(LIST, { status: statusFilter.value || null }),
    selected.name && selected.id ? graphql(ONE, selected) : Promise.resolve(null),
  ]);
  const instances = list.workflows.edges.map((edge) => edge.node);
  fill(
    live,
    one === null ? null : one.workflow ? detail(one.workflow) : h('p', { class: 'empty' }, `No workflow ${selected.name} ${selected.id}.`),
    h('h2', {}, 'Instances'),
    instances.length === 0
      ? h('p', { class: 'empty' }, 'No workflow instance.')
      : table(['Workflow', 'Instance', 'Status', 'Step', 'Started', 'Ended'], instances.map((workflow) => [workflow.name, link(workflow), badge(workflow.status), workflow.currentStep ?? '—', time(workflow.startedAt), time(workflow.endedAt)]), { 'data-testid': 'workflows' }),
  );
}

refresh = startPage({
  title: 'Workflows',
  setup(controls) {
    statusFilter = h('select', { id: 'status', onchange: () => refresh() }, ['', 'running', 'completed', 'compensated', 'failed'].map((status) => h('option', { value: status }, status || 'any')));
    fill(controls, h('label', { for: 'status' }, 'Status '), statusFilter);
  },
  render,
});
