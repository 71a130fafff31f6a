// Building the page: every value is set as text or as an attribute, never as
// HTML, so nothing the API returns can become markup or script.

/** An element with attributes (`on*` functions become listeners) and children (strings become text nodes). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A table of rows: `columns` are header labels, each row an array of cells (text or nodes). */
export function table(columns, rows, attributes = {}) {
  return h(
    'table',
    attributes,
    h('thead', {}, h('tr', {}, columns.map((column) => h('th', { scope: 'col' }, column)))),
    h('tbody', {}, rows.map((row) => (row instanceof Node ? row : h('tr', {}, row.map((cell) => h('td', {}, cell)))))),
  );
}

/** A short status word with its colour class (`ok`, `up`, `lost`, `failed`, …). */
export const badge = (word) => h('span', { class: `badge badge-${String(word).replace(/[^a-z-]/gi, '')}` }, word ?? '—');

/** A time as the operator's locale shows it; the ISO text stays in the title. */
export const time = (iso) => (iso ? h('time', { datetime: iso, title: iso }, new Date(iso).toLocaleString()) : '—');

/** A JSON value as compact text (evidence, limits, board info). */
export const json = (value) => h('code', {}, value === undefined || value === null ? '—' : JSON.stringify(value));

/** An event's type (`inventory.DeviceDisabled`): it may wrap after a dot, never inside a word. */
export const eventName = (type) => h('code', { class: 'event-name', title: type }, String(type).split('.').map((part, index) => (index === 0 ? part : [h('wbr'), `.${part}`])));
