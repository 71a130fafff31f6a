import { fetchFailureReason } from '@ledger/kernel';
import { identityUnavailable } from './keystone-errors';

export interface KeystoneReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/**
 * One call to Keystone's identity API (`purpose` says what for, in errors).
 * A network failure or a timeout is AUTH.IDENTITY_UNAVAILABLE; every answer, whatever its status, is returned
 * for the caller to read (a 404 on a token means "not valid", not "down").
 */
export async function keystoneCall(url: string, init: RequestInit & { timeoutMs: number; purpose: string }): Promise<KeystoneReply> {
  const { timeoutMs, purpose, ...request } = init;
  let response: Response;
  try {
    response = await fetch(url, { ...request, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw identityUnavailable(`${purpose}: ${fetchFailureReason(error, 'it did not answer in time')}`);
  }
  const text = await response.text().catch(() => '');
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** Keystone's error body `{"error":{"message":…}}`, or the status. */
export function keystoneMessage(reply: KeystoneReply): string {
  const message = (reply.body as { error?: { message?: string } } | undefined)?.error?.message;
  return message ?? `HTTP ${reply.status}`;
}
