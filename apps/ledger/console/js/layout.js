// Every page's frame: the navigation, who is signed in, the live region the
// page renders into, and the polling that keeps it current.
import { ApiError } from './api.js';
import { fill, h } from './dom.js';
import { signOut, token, who } from './session.js';

const PAGES = [
  ['fleet.html', 'Fleet', true],
  ['requests.html', 'Requests & profiles', false],
  ['quota.html', 'Quota', false],
  ['workflows.html', 'Workflows', true],
  ['placement.html', 'Placement', true],
  ['audit.html', 'Audit', true],
  ['graphql.html', 'GraphQL', false],
];

/** How often a page re-reads the API while it is visible. */
const POLL_MS = 2000;

function header() {
  const identity = who();
  const here = location.pathname.split('/').pop();
  const links = PAGES.filter(([, , fleet]) => identity?.fleet || !fleet).map(([file, label]) =>
    h('a', { href: `/console/${file}`, 'aria-current': file === here ? 'page' : null }, label),
  );
  return h(
    'header',
    {},
    h('strong', {}, 'Accelerator Ledger'),
    h('nav', {}, links),
    h('span', { class: 'who', 'data-testid': 'who' }, identity ? `project ${identity.project ?? '—'}` : ''),
    h('button', { type: 'button', onclick: signOut }, 'Sign out'),
  );
}

/** What to say when a read fails: the API's code and its reason (for a refusal, the roles it needs), or the error's words. */
function problem(error) {
  if (error instanceof ApiError && error.status === 403) return `Not allowed for this token: ${error.code ?? 'FORBIDDEN'}: ${error.message}`;
  if (error instanceof ApiError) return `${error.message}${error.code ? ` (${error.code})` : ''}`;
  return String(error?.message ?? error);
}

function say(alert, source, error) {
  fill(alert, problem(error));
  alert.dataset.source = source;
  alert.hidden = false;
}

/**
 * Starts a page: `setup(controls)` once (forms, sliders: state that must
 * survive a refresh), then `render(live)` now and every POLL_MS while the tab
 * is visible. `body[data-ready]` and the `console-ready` performance mark
 * are set after the first answer (for tests and the render benchmark).
 * Returns `refresh`, for after a click changed something.
 */
export function startPage({ title, setup, render }) {
  if (!token()) {
    location.replace('/console/');
    return () => undefined;
  }
  const controls = h('section', { class: 'controls' });
  const live = h('section', { class: 'live', 'aria-live': 'polite' });
  const status = h('p', { class: 'status', role: 'status' });
  const alert = h('p', { class: 'alert', role: 'alert', hidden: true });
  document.title = `${title} — Ledger console`;
  document.body.append(header(), h('main', {}, h('h1', {}, title), status, alert, controls, live));
  setup?.(controls);

  let timer;
  const once = async () => {
    clearTimeout(timer);
    try {
      await render(live);
      // A refused click stays said until the next click; a failed read clears once reads work again.
      if (alert.dataset.source === 'read') alert.hidden = true;
      fill(status, `Updated ${new Date().toLocaleTimeString()}`);
    } catch (error) {
      say(alert, 'read', error);
    } finally {
      // The first answer on screen: tests wait for it, and the render benchmark reads the mark's time from navigation start.
      if (!document.body.dataset.ready) performance.mark('console-ready');
      document.body.dataset.ready = 'true';
      clearTimeout(timer);
      if (!document.hidden) timer = setTimeout(refresh, POLL_MS);
    }
  };
  // One read at a time: a refresh asked for during a read runs after it, so it sees what the click changed.
  let chain = Promise.resolve();
  const refresh = () => (chain = chain.then(once));
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) refresh();
  });
  refresh();
  return refresh;
}

/** Runs a button's action, shows its refusal, and refreshes the page after it. */
export function action(refresh, run) {
  return async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    const alert = document.querySelector('.alert');
    try {
      await run();
      alert.hidden = true;
    } catch (error) {
      say(alert, 'action', error);
      return;
    } finally {
      button.disabled = false;
    }
    await refresh();
  };
}
