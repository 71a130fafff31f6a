import type { EventStore } from '@ledger/eventstore';

interface RefusedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

/**
 * Asserts a v2 refusal: status, stable code (`X-Error-Code`), Cyborg's body
 * shape (`error_message`, plus `message` for openstacksdk), and nothing
 * appended to the store. Answers the message.
 */
export async function expectCyborgRefusal(store: EventStore, send: () => Promise<RefusedResponse>, status: number, code: string): Promise<string> {
  const before = await store.headPosition();
  const response = await send();
  expect({ status: response.status, code: response.headers.get('x-error-code') }).toEqual({ status, code });
  expect(Object.keys(response.body)).toEqual(['error_message', 'message']);
  expect(await store.headPosition()).toBe(before);
  return response.body.error_message as string;
}
