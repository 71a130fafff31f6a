import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { checkedLedgerUrl, clientLedgerUrl, dataFiles, type LedgerConfig } from '@ledger/config';
import { CliError } from './cli-error';
import { cliConfig, cliSetting } from './config';
import { httpExchange, HttpTimeoutError, type HttpReply } from './http-exchange';

/** How long one request may take before the CLI gives up. */
const TIMEOUT_MS = 30_000;

/** `--url` and `--token`, as every command that talks to a running ledger takes them. */
export interface LedgerApiOptions {
  readonly url?: string;
  readonly token?: string;
}

/** The ledger refused a request: its problem-details `code` and `detail`, exit code 1. */
export class LedgerApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`, 1);
  }
}

/** Adds `--url` and `--token` to a command. */
export function withLedgerApiOptions(command: Command): Command {
  return command
    .option('--url <url>', 'the ledger (default: $LEDGER_URL, else http://127.0.0.1:$PORT, PORT 8666; docs/ledgerctl.md)')
    .option('--token <token>', "a token (default: $LEDGER_TOKEN, else the admin token the ledger wrote under its data directory)");
}

/**
 * A small client of the ledger's native HTTP API, for commands that act on
 * a running ledger rather than on its store: JSON in and out, problem
 * details turned into LedgerApiError, an unreachable ledger into one clear line.
 */
export class LedgerApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** The URL from --url, else the clients' rule (clientLedgerUrl: LEDGER_URL, else PORT); the token from --token, else LEDGER_TOKEN, else the ledger's data directory. */
  static fromOptions(options: LedgerApiOptions, env: NodeJS.ProcessEnv = process.env): LedgerApiClient {
    const url = options.url === undefined ? cliSetting(() => clientLedgerUrl(env)) : checkedBaseUrl(options.url);
    return new LedgerApiClient(url, options.token ?? nonEmpty(env.LEDGER_TOKEN) ?? adminTokenOf(cliConfig()));
  }

  /** Sends one request; resolves to the parsed JSON body (undefined when empty). `options.headers` are sent as well (e.g. X-Ledger-Min-Position). */
  async request<T = unknown>(method: string, path: string, body?: unknown, options: { readonly headers?: Readonly<Record<string, string>> } = {}): Promise<T> {
    const headers: Record<string, string> = { ...options.headers, 'x-auth-token': this.token, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let reply: HttpReply;
    try {
      reply = await httpExchange(new URL(`${this.baseUrl}${path}`), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), timeoutMs: TIMEOUT_MS });
    } catch (error) {
      throw this.unreachable(error);
    }
    const parsed = parseJson(reply.text);
    if (reply.status < 200 || reply.status > 299) throw refusal(reply.status, parsed, reply.text);
    return parsed as T;
  }

  private unreachable(error: unknown): CliError {
    if (error instanceof HttpTimeoutError) return new CliError(`the ledger at ${this.baseUrl} did not answer within ${TIMEOUT_MS / 1000} s`, 1);
    const failure = error as NodeJS.ErrnoException;
    return new CliError(`cannot reach the ledger at ${this.baseUrl} (${failure.code ?? failure.message})`, 1);
  }
}

function refusal(status: number, body: unknown, text: string): CliError {
  const problem = body as { code?: unknown; detail?: unknown } | undefined;
  if (typeof problem?.code === 'string') return new LedgerApiError(status, problem.code, String(problem.detail ?? ''));
  return new LedgerApiError(status, `HTTP.${status}`, text.slice(0, 200) || 'no details');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** --url: checked as LEDGER_URL is, but a bad one is the flag's usage error. */
function checkedBaseUrl(url: string): string {
  return cliSetting(() => checkedLedgerUrl(url, '--url'));
}

function adminTokenOf(config: LedgerConfig): string {
  const file = dataFiles(config).adminToken;
  if (!existsSync(file)) throw new CliError(`no token: pass --token or set LEDGER_TOKEN (there is no admin token at ${file})`, 2);
  return readFileSync(file, 'utf8').trim();
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());
