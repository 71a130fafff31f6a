import { sendWithAccess, type ServiceAccess } from '@ledger/kernel';
import { classifyFetchFailure, classifyHttpStatus } from '@ledger/processing';
import type { NovaEvents } from '../../application/nova/nova-events.port';
import type { AcceleratorRequestBound } from '../../domain/nova-notice';

export interface HttpNovaEventsOptions {
  /**
   * Nova's compute endpoint (`http://nova-api:8774/v2.1`) and `X-Auth-Token`
   * (a token with Nova's admin rights): LEDGER_NOVA_URL and _TOKEN, or the
   * Keystone catalog's `compute` endpoint and the ledger's own token. Not
   * knowing them now (no catalog endpoint, Keystone down) counts as Nova unreachable.
   */
  readonly access: ServiceAccess;
  /** Per post; default 10000 ms. */
  readonly timeoutMs?: number;
  /** Told about events Nova refused inside an accepted 207 (other than 422, which only means "not on a host yet"). */
  readonly onPartial?: (refused: unknown[]) => void;
}

/**
 * Posts to Nova's os-server-external-events as Cyborg does (CYBORG-V2.md §7,
 * §8): microversion 2.82 in both header spellings, the key as
 * `X-OpenStack-Request-ID: req-<uuid>` (the form Nova's request-id
 * middleware accepts from another service).
 */
export class HttpNovaEvents implements NovaEvents {
  constructor(private readonly options: HttpNovaEventsOptions) {}

  async acceleratorRequestsBound(events: readonly AcceleratorRequestBound[], options: { readonly key: string; readonly signal?: AbortSignal }): Promise<void> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 10_000);
    const payload = JSON.stringify({
      events: events.map((event) => ({ name: 'accelerator-request-bound', server_uuid: event.instanceUuid, tag: event.arqUuid, status: event.status })),
    });
    let response: Response;
    let body: unknown;
    try {
      response = await sendWithAccess(this.options.access, { service: 'Nova', method: 'POST', path: '/os-server-external-events' }, (url, headers) =>
        fetch(url, {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            'x-openstack-nova-api-version': '2.82',
            'openstack-api-version': 'compute 2.82',
            'x-openstack-request-id': `req-${options.key}`,
          },
          body: payload,
          signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
        }),
      );
      body = await response.json().catch(() => undefined);
    } catch (error) {
      throw classifyFetchFailure(error, 'Nova');
    }
    const failure = classifyHttpStatus(response.status, 'Nova', body);
    if (failure) throw failure;
    if (response.status === 207) this.reportPartial(body);
  }

  private reportPartial(body: unknown): void {
    const answered = (body as { events?: { code?: number }[] } | undefined)?.events ?? [];
    const refused = answered.filter((event) => event.code !== 200 && event.code !== 422);
    if (refused.length > 0) this.options.onPartial?.(refused);
  }
}
