// Sign-in: the token is checked against the API before it is kept, and what
// it may see decides the first page (the fleet for operators, the project's
// requests for everyone else). The form is never submitted: no token in a URL.
import { fill } from './dom.js';
import { signIn } from './session.js';

async function ask(tokenValue, query) {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'x-auth-token': tokenValue, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = await response.json().catch(() => null);
  return { status: response.status, data: body?.data ?? null, code: body?.errors?.[0]?.extensions?.code ?? body?.code ?? null };
}

async function submit(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const alert = form.querySelector('.alert');
  const value = form.elements.token.value.trim();
  alert.hidden = true;
  const quota = await ask(value, '{ quota { project } }');
  if (quota.status === 401) {
    fill(alert, `This token is not accepted (${quota.code ?? 'HTTP 401'}).`);
    alert.hidden = false;
    return;
  }
  const fleet = await ask(value, '{ hosts(first: 1) { edges { cursor } } }');
  const identity = { project: quota.data?.quota?.project || null, fleet: fleet.data?.hosts !== undefined && fleet.data?.hosts !== null };
  signIn(value, identity);
  location.assign(identity.fleet ? '/console/fleet.html' : '/console/requests.html');
}

document.getElementById('sign-in').addEventListener('submit', submit);
