import { ConfigError } from './config-error';
import { type Env, integerSetting, nonEmpty } from './env-values';

/** The port the ledger listens on when PORT is unset (ledger-config.ts). */
const DEFAULT_LEDGER_PORT = 8666;

/**
 * Where every client finds the ledger — ledgerctl, the agent, `npm run
 * simulate`, and the test helpers that start them: `LEDGER_URL` when set,
 * else `http://127.0.0.1:$PORT` (8666), the port the ledger itself reads,
 * so one exported PORT moves the server and its clients together. A
 * command-line flag (`--url`, `--ledger`) comes before both. The URL is
 * checked here (http or https) and returned without a trailing slash.
 */
export function clientLedgerUrl(env: Env): string {
  const explicit = nonEmpty(env.LEDGER_URL);
  if (explicit !== undefined) return checkedLedgerUrl(explicit, 'LEDGER_URL');
  return `http://127.0.0.1:${integerSetting(env, 'PORT', DEFAULT_LEDGER_PORT, 1, 65_535)}`;
}

/** An http(s) URL without its trailing slashes; anything else is a ConfigError naming `setting`. */
export function checkedLedgerUrl(value: string, setting: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(setting, `"${value}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(setting, `"${value}" is not an http(s) URL`);
  return value.replace(/\/+$/, '');
}
