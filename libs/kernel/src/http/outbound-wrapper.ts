/** A request to another service, as a wrapper around it sees it. */
export interface OutboundRequest {
  /** Whom the ledger calls: `Nova`, `Placement`. */
  readonly service: string;
  readonly method: string;
  readonly url: string;
}

/**
 * Wraps each request `sendWithAccess` sends: calls `send` with headers to add
 * and sees the answer. The ledger sets one while it exports traces (a client
 * span, its `traceparent` sent along); the kernel depends on nothing, so
 * tracing comes to it through this hook.
 */
export type OutboundWrapper = (request: OutboundRequest, send: (headers: Readonly<Record<string, string>>) => Promise<Response>) => Promise<Response>;

let current: OutboundWrapper | undefined;

/** Sets (or, with undefined, removes) the process's wrapper of outbound requests. */
export function wrapOutboundRequests(wrapper: OutboundWrapper | undefined): void {
  current = wrapper;
}

/** The wrapper in force, if any. */
export const outboundWrapper = (): OutboundWrapper | undefined => current;
