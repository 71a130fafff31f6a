import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadOrCreateCredentials, type Principal, type TokenCodec } from '@ledger/auth';
import { dataFiles, type LedgerConfig, loadLedgerConfig } from '@ledger/config';
import { createLedgerApp } from '../../apps/ledger/src/create-ledger-app';
import type { LedgerWorkflows } from '../../apps/ledger/src/infrastructure/ledger-workflows';
import { keepLog } from './kept-logs';

/** A whole ledger app, in-process, on a free port over real HTTP, with its own data directory. */
export interface TestLedger {
  readonly app: NestFastifyApplication;
  readonly url: string;
  readonly config: LedgerConfig;
  readonly codec: TokenCodec;
  readonly adminToken: string;
  /** What its log printed (kept, not written to Jest's output: test/support/kept-logs.ts). */
  output(): string;
  token(principal: Principal): string;
  request(method: string, path: string, options?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

/** `workflows` replaces the ledger's own list, for a test's small workflows. */
export async function startTestLedger(env: Record<string, string> = {}, workflows?: LedgerWorkflows): Promise<TestLedger> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-e2e-'));
  // Cleaning off unless a test turns it on (LEDGER_CLEAN_DEVICE_TYPES): the other tests rebind a device the moment it is released.
  const config = loadLedgerConfig({ LEDGER_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LEDGER_LOG_LEVEL: 'warn', LEDGER_CLEAN_DEVICE_TYPES: 'none', ...env });
  const { codec } = loadOrCreateCredentials(dataFiles(config));
  const log = keepLog('in-process ledger');
  const app = await createLedgerApp(config, codec, { workflows, logDestination: log });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const adminToken = codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] });
  await untilReady(url);
  return {
    app,
    url,
    config,
    codec,
    adminToken,
    output: () => log.text(),
    token: (principal) => codec.issue(principal),
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token) headers['x-auth-token'] = options.token;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits for /readyz as a deployment's health check would: the processors have
 * prepared their tables, so a first read that waits for the projections does
 * not spend its own bounded wait on a cold start (more projections on a
 * loaded PostgreSQL take seconds to prepare).
 */
async function untilReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fetch(`${url}/readyz`).then((response) => response.ok, () => false))) {
    if (Date.now() > deadline) throw new Error(`the test ledger at ${url} was not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
