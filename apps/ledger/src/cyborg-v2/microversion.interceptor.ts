import { type CallHandler, createParamDecorator, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { formatMicroversion, MAX_MICROVERSION, MIN_MICROVERSION, type Microversion, parseMicroversion, SERVICE_TYPE } from './microversion';

type VersionedRequest = FastifyRequest & { microversion?: Microversion };

/**
 * Negotiates the microversion of every /v2 request (406 when it cannot be
 * served) and answers with Cyborg's version headers.
 */
@Injectable()
export class MicroversionInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<VersionedRequest>();
    const reply = http.getResponse<FastifyReply>();
    setVersionHeaders(reply);
    const version = parseMicroversion(request.headers['openstack-api-version']);
    request.microversion = version;
    reply.header('OpenStack-API-Version', `${SERVICE_TYPE} ${formatMicroversion(version)}`);
    return next.handle();
  }
}

/** The headers Cyborg sends on every v2 response, errors included. */
export function setVersionHeaders(reply: FastifyReply): void {
  reply
    .header('OpenStack-API-Minimum-Version', formatMicroversion(MIN_MICROVERSION))
    .header('OpenStack-API-Maximum-Version', formatMicroversion(MAX_MICROVERSION))
    .header('Vary', 'OpenStack-API-Version');
}

/** The negotiated microversion of the current /v2 request. */
export const RequestMicroversion = createParamDecorator(
  (_: unknown, context: ExecutionContext): Microversion =>
    context.switchToHttp().getRequest<VersionedRequest>().microversion ?? MIN_MICROVERSION,
);
