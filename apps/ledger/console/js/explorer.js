// The GraphQL explorer: a query, its variables, the answer, and the schema
// the ledger describes of itself (introspection), all under the signed-in
// token and the console's Content-Security-Policy. No GraphiQL package is
// installed, and one from a CDN would be blocked here (and offline), so
// this is the console's own: text areas, a run button, a schema list.
import { token } from './session.js';
import { fill, h } from './dom.js';
import { startPage } from './layout.js';

const EXAMPLE = `# A page of hosts with their devices; run with Ctrl+Enter.
query Fleet($first: Int!) {
  hosts(first: $first) {
    edges { node { hostname status agentStatus devices(first: 10) { edges { node { uuid type model health } } } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const SCHEMA = `{ __schema { queryType { name } types { name kind description fields { name description args { name type { ...Ref } } type { ...Ref } } } } }
fragment Ref on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`;

const STORE = 'ledger.console.explorer';
let query;
let variables;
let result;
let schemaLoaded = false;

const typeName = (type) => (type.kind === 'NON_NULL' ? `${typeName(type.ofType)}!` : type.kind === 'LIST' ? `[${typeName(type.ofType)}]` : type.name);

/** Posts to /graphql as is and shows the whole answer: data, errors with their codes, and the HTTP status. */
async function run() {
  let parsed;
  try {
    parsed = variables.value.trim() ? JSON.parse(variables.value) : {};
  } catch (error) {
    fill(result, `Variables are not JSON: ${error.message}`);
    result.dataset.status = 'invalid';
    return;
  }
  sessionStorage.setItem(STORE, JSON.stringify({ query: query.value, variables: variables.value }));
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'x-auth-token': token() ?? '', 'content-type': 'application/json' },
    body: JSON.stringify({ query: query.value, variables: parsed }),
  });
  const text = await response.text();
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: show the text as it came
  }
  fill(result, `HTTP ${response.status}\n${shown}`);
  result.dataset.status = String(response.status);
}

function schemaList(schema) {
  const root = schema.types.find((type) => type.name === schema.queryType.name);
  const objects = schema.types.filter((type) => type.kind === 'OBJECT' && !type.name.startsWith('__') && type !== root).sort((a, b) => a.name.localeCompare(b.name));
  const fields = (type) =>
    h('ul', {}, (type.fields ?? []).map((field) => h('li', { title: field.description ?? '' }, h('code', {}, field.name), field.args.length ? h('span', { class: 'hint' }, `(${field.args.map((arg) => `${arg.name}: ${typeName(arg.type)}`).join(', ')})`) : null, ': ', h('code', {}, typeName(field.type)))));
  return [
    h('h3', {}, 'Query'),
    h('div', { 'data-testid': 'schema-query' }, fields(root)),
    h('h3', {}, 'Types'),
    objects.map((type) => h('details', {}, h('summary', {}, type.name), type.description ? h('p', { class: 'hint' }, type.description) : null, fields(type))),
  ];
}

/** The schema once, on the first poll; the explorer does not re-run the operator's query on a timer. */
async function render(live) {
  if (schemaLoaded) return;
  const response = await fetch('/graphql', { method: 'POST', headers: { 'x-auth-token': token() ?? '', 'content-type': 'application/json' }, body: JSON.stringify({ query: SCHEMA }) });
  const body = await response.json();
  if (!body.data) throw new Error(`the schema could not be read: ${body.errors?.[0]?.message ?? `HTTP ${response.status}`}`);
  fill(live, h('aside', { class: 'schema', 'aria-label': 'Schema' }, h('h2', {}, 'Schema'), schemaList(body.data.__schema)));
  schemaLoaded = true;
}

startPage({
  title: 'GraphQL explorer',
  setup(controls) {
    const saved = JSON.parse(sessionStorage.getItem(STORE) ?? 'null');
    query = h('textarea', { id: 'query', rows: 16, spellcheck: 'false', 'data-testid': 'query' });
    query.value = saved?.query ?? EXAMPLE;
    variables = h('textarea', { id: 'variables', rows: 4, spellcheck: 'false', 'data-testid': 'variables' });
    variables.value = saved?.variables ?? '{ "first": 5 }';
    result = h('pre', { class: 'result', 'data-testid': 'result', 'aria-live': 'polite' });
    const runButton = h('button', { type: 'button', 'data-testid': 'run', onclick: run }, 'Run');
    for (const area of [query, variables]) {
      area.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) run();
      });
    }
    fill(
      controls,
      h('p', { class: 'hint' }, 'Queries run against POST /graphql with your token; docs/graphql.md describes the schema, its limits and error codes.'),
      h('div', { class: 'explorer' }, h('div', {}, h('label', { for: 'query' }, 'Query'), query, h('label', { for: 'variables' }, 'Variables (JSON)'), variables, h('p', {}, runButton)), h('div', {}, h('label', {}, 'Answer'), result)),
    );
  },
  render,
});
