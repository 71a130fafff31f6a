import { checkedLedgerUrl, clientLedgerUrl, ConfigError, type Env, nonEmpty } from '@ledger/config';

/**
 * The ledger addresses an agent (or `npm run simulate`) dials: the
 * clients' one rule (clientLedgerUrl: LEDGER_URL, else
 * http://127.0.0.1:$PORT), where LEDGER_URL may list several API replicas,
 * comma-separated; the agent spreads over them and fails over between them
 * (docs/agent-protocol.md, "Several ledger addresses"). The agent's own name
 * from before that rule, AGENT_LEDGER_URL, still works when LEDGER_URL is
 * unset, with a warning: agents run from unit files and config management,
 * and an upgraded agent that silently dialled 127.0.0.1:8666 instead would
 * retry against nothing forever.
 */
export function agentLedgerUrls(env: Env): { readonly urls: readonly string[]; readonly warnings: readonly string[] } {
  const deprecated = nonEmpty(env.AGENT_LEDGER_URL);
  const current = nonEmpty(env.LEDGER_URL);
  if (deprecated === undefined || current !== undefined) {
    const warnings = deprecated === undefined ? [] : ['AGENT_LEDGER_URL is deprecated and ignored, since LEDGER_URL is set: remove it'];
    return { urls: current === undefined ? [clientLedgerUrl(env)] : ledgerUrlList(current, 'LEDGER_URL'), warnings };
  }
  return { urls: ledgerUrlList(deprecated, 'AGENT_LEDGER_URL'), warnings: ['AGENT_LEDGER_URL is deprecated: rename it LEDGER_URL'] };
}

/** A comma-separated list of http(s) URLs, each checked, none repeated. */
export function ledgerUrlList(value: string, setting: string): string[] {
  const urls = value.split(',').map((part) => part.trim()).filter((part) => part !== '').map((part) => checkedLedgerUrl(part, setting));
  if (urls.length === 0) throw new ConfigError(setting, `"${value}" names no URL`);
  const repeated = urls.find((url, index) => urls.indexOf(url) !== index);
  if (repeated !== undefined) throw new ConfigError(setting, `"${repeated}" is listed twice`);
  return urls;
}
