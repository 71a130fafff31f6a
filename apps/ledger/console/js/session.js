// The signed-in token lives in sessionStorage: one tab's session, gone when
// the tab closes, never in a URL (so never in logs, history or a Referer).
const TOKEN_KEY = 'ledger.console.token';
const WHO_KEY = 'ledger.console.who';

export const token = () => sessionStorage.getItem(TOKEN_KEY);

/** Who signed in, as the sign-in page learnt it: `{ project, fleet }` (fleet: may read hosts and devices). */
export const who = () => JSON.parse(sessionStorage.getItem(WHO_KEY) ?? 'null');

export function signIn(value, identity) {
  sessionStorage.setItem(TOKEN_KEY, value);
  sessionStorage.setItem(WHO_KEY, JSON.stringify(identity));
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(WHO_KEY);
  location.assign('/console/');
}
