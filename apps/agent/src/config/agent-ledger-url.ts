import { checkedLedgerUrl, clientLedgerUrl, type Env, nonEmpty } from '@ledger/config';

/**
 * The ledger an agent (or `npm run simulate`) dials: the clients' one rule
 * (clientLedgerUrl: LEDGER_URL, else http://127.0.0.1:$PORT). The agent's
 * own name from before that rule, AGENT_LEDGER_URL, still works when
 * LEDGER_URL is unset, with a warning: agents run from unit files and
 * config management, and an upgraded agent that silently dialled
 * 127.0.0.1:8666 instead would retry against nothing forever.
 */
export function agentLedgerUrl(env: Env): { readonly url: string; readonly warnings: readonly string[] } {
  const deprecated = nonEmpty(env.AGENT_LEDGER_URL);
  if (deprecated === undefined) return { url: clientLedgerUrl(env), warnings: [] };
  if (nonEmpty(env.LEDGER_URL) !== undefined) {
    return { url: clientLedgerUrl(env), warnings: ['AGENT_LEDGER_URL is deprecated and ignored, since LEDGER_URL is set: remove it'] };
  }
  return { url: checkedLedgerUrl(deprecated, 'AGENT_LEDGER_URL'), warnings: ['AGENT_LEDGER_URL is deprecated: rename it LEDGER_URL'] };
}
